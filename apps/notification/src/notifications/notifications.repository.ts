import type { EntityManager } from 'typeorm';
import type { SealedSecret } from '@platform/common';
import { prepared, type TenantContext, type TenantDb } from '@platform/db';
import type { NotificationStatus } from '@platform/messaging';
import { usageOutboxJson, type PendingUsage } from '@platform/service';
import type { Content } from '../delivery/render.js';
import type { Attempt, NotificationRow, Source } from './notification.record.js';

const COLUMNS = `tenant_id, environment_id, scope_id, id, channel_id, kind, source, recipients, target_iv, target_ciphertext, target_tag, subject, template, content, status, attempts, attempt_count, next_attempt_at, idempotency_key, request_hash, created_at, updated_at, delivered_at`;

const ACCEPT = prepared(
  'notification.accept',
  `select * from notification.accept($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb[], $10, $11, $12, $13, $14, $15::jsonb[], $16, $17::jsonb[], $18, $19, $20::jsonb)`,
);
const CLAIM = prepared('notification.claim_deliveries', `select * from notification.claim_deliveries($1, $2, $3, $4, $5, $6)`);
const RECORD_ATTEMPTS = prepared('notification.record_attempts', `select notification.record_attempts($1, $2, $3, $4, $5, $6, $7::jsonb[], $8)`);

/** What an attempt needs of a claimed notification. */
export type ClaimedNotification = Pick<
  NotificationRow,
  'id' | 'channel_id' | 'kind' | 'recipients' | 'target_iv' | 'target_ciphertext' | 'target_tag' | 'content' | 'attempt_count'
>;

export interface NewNotification {
  id: string;
  channelId: string | null;
  kind: string;
  source: Source;
  recipients: string[] | null;
  target: SealedSecret | null;
  subject: string | null;
  template: string | null;
  content: Content;
  status: NotificationStatus;
  attempts: Attempt[];
  idempotencyKey: string | null;
  requestHash: string | null;
}

/** A usage fact counting sends of a batch: written with the number of them stored, if any is. */
export interface MeteredSends {
  ids: string[];
  usage: PendingUsage;
}

export interface AttemptRecord {
  id: string;
  attempt: Attempt;
  status: NotificationStatus;
  nextAttemptAt: Date | null;
}

export interface HistoryFilter {
  channelId?: string;
  status?: string;
  from?: string;
  to?: string;
  beforeId: string | null;
  limit: number;
}

/** A notification owed a delivery that made no progress, as the reconciler sees it. */
export type StaleNotification = Pick<NotificationRow, 'tenant_id' | 'environment_id' | 'scope_id' | 'id' | 'attempt_count'> & { requeues: number };

/** Every query on notification.notifications; managers come from TenantDb (RLS) unless named. */
export const notificationsRepository = {
  /**
   * Stores notifications of one tenant context with usage facts counting those stored, in one round
   * trip (NotificationHotPath migration); those whose idempotency key exists already (or repeats
   * within the batch) are not stored, not counted, and missing from the answer.
   */
  async accept(db: TenantDb, ctx: TenantContext, list: NewNotification[], usage: MeteredSends[]): Promise<Pick<NotificationRow, 'id' | 'status'>[]> {
    const col = <T>(f: (n: NewNotification) => T) => list.map(f);
    return db.call<Pick<NotificationRow, 'id' | 'status'>>(ctx, ACCEPT, [
      col((n) => n.id),
      col((n) => n.channelId),
      col((n) => n.kind),
      col((n) => n.source),
      col((n) => (n.recipients ? JSON.stringify(n.recipients) : null)),
      col((n) => n.target?.iv ?? null),
      col((n) => n.target?.ciphertext ?? null),
      col((n) => n.target?.tag ?? null),
      col((n) => n.subject),
      col((n) => n.template),
      col((n) => JSON.stringify(n.content)),
      col((n) => n.status),
      col((n) => JSON.stringify(n.attempts)),
      col((n) => n.idempotencyKey),
      col((n) => n.requestHash),
      JSON.stringify(usage.map((u) => ({ ...usageOutboxJson(u.usage), notification_ids: u.ids }))),
    ]);
  },

  async byIdempotencyKey(m: EntityManager, key: string): Promise<NotificationRow | undefined> {
    const rows = await m.query<NotificationRow[]>(`select ${COLUMNS} from notification.notifications where idempotency_key = $1`, [key]);
    return rows[0];
  },

  async get(m: EntityManager, id: string): Promise<NotificationRow | undefined> {
    const rows = await m.query<NotificationRow[]>(`select ${COLUMNS} from notification.notifications where id = $1`, [id]);
    return rows[0];
  },

  async history(m: EntityManager, f: HistoryFilter): Promise<NotificationRow[]> {
    return m.query<NotificationRow[]>(
      `select ${COLUMNS} from notification.notifications
        where ($1::uuid is null or id < $1) and ($2::uuid is null or channel_id = $2) and ($3::text is null or status = $3)
          and ($4::timestamptz is null or created_at >= $4) and ($5::timestamptz is null or created_at < $5)
        order by id desc limit $6`,
      [f.beforeId, f.channelId ?? null, f.status ?? null, f.from ?? null, f.to ?? null, f.limit + 1],
    );
  },

  /**
   * Takes notifications for one attempt each: only those owed one (queued, retrying and due, or
   * sending under a lease that ran out: their worker died). A duplicate work item finds nothing to
   * take. One round trip (NotificationHotPath migration); the lease commits asynchronously.
   */
  async claim(db: TenantDb, ctx: TenantContext, ids: string[], leaseMs: number): Promise<ClaimedNotification[]> {
    return db.call<ClaimedNotification>(ctx, CLAIM, [ids, leaseMs], { asyncCommit: true });
  },

  /** The earliest retry due among these notifications, if any waits for one (not claimed: not yet due). */
  async nextRetryAt(m: EntityManager, ids: string[]): Promise<Date | null> {
    const [row] = await m.query<{ at: Date | null }[]>(
      `select min(next_attempt_at) as at from notification.notifications where id = any($1::uuid[]) and status = 'retrying'`,
      [ids],
    );
    return row?.at ?? null;
  },

  /** Records attempts (one per notification) and the status each leads to: one round trip (NotificationHotPath migration). */
  async recordAttempts(db: TenantDb, ctx: TenantContext, records: AttemptRecord[]): Promise<void> {
    await db.call(ctx, RECORD_ATTEMPTS, [
      records.map((r) => r.id),
      records.map((r) => r.status),
      records.map((r) => JSON.stringify(r.attempt)),
      records.map((r) => r.nextAttemptAt),
    ]);
  },

  /** SystemDb: notifications still owed a delivery with no progress for `staleMs` (the reconciler). */
  async stale(m: EntityManager, staleMs: number, limit: number): Promise<StaleNotification[]> {
    return m.query(
      `select tenant_id, environment_id, scope_id, id, attempt_count, requeues from notification.notifications
        where status in ('queued', 'sending', 'retrying') and updated_at < now() - make_interval(secs => $1::float8 / 1000)
          and (status <> 'retrying' or next_attempt_at < now() - make_interval(secs => $1::float8 / 1000))
        order by updated_at limit $2`,
      [staleMs, limit],
    );
  },

  /** SystemDb: marks the rows the reconciler queued again, so the next pass waits another period. */
  async touch(m: EntityManager, rows: { tenant_id: string; id: string }[]): Promise<void> {
    if (!rows.length) return;
    await m.query(
      `update notification.notifications n set updated_at = now(), requeues = n.requeues + 1
        from unnest($1::uuid[], $2::uuid[]) as t(tenant_id, id) where n.tenant_id = t.tenant_id and n.id = t.id`,
      [rows.map((r) => r.tenant_id), rows.map((r) => r.id)],
    );
  },

  /**
   * SystemDb: fails notifications the reconciler gave up on (still owed a delivery and no attempt
   * recorded since it looked), with the reason as the last entry of their history.
   */
  async giveUp(m: EntityManager, rows: StaleNotification[], error: string): Promise<void> {
    if (!rows.length) return;
    await m.query(
      `update notification.notifications n set status = 'failed', lease_until = null, next_attempt_at = null, updated_at = now(),
          attempts = n.attempts || jsonb_build_array(jsonb_build_object('attempt', n.attempt_count, 'at', now(), 'outcome', 'failed', 'status_code', null, 'error', $4::text))
        from unnest($1::uuid[], $2::uuid[], $3::int[]) as t(tenant_id, id, attempt_count)
        where n.tenant_id = t.tenant_id and n.id = t.id and n.attempt_count = t.attempt_count and n.status in ('queued', 'sending', 'retrying')`,
      [rows.map((r) => r.tenant_id), rows.map((r) => r.id), rows.map((r) => r.attempt_count), error],
    );
  },
};
