import type { EntityManager } from 'typeorm';
import type { WebhookDeliveryOutcome } from '@platform/messaging';
import type { SealedSecret } from './secret-box.js';
import type { DeliveryRow, WebhookRow } from './webhook.record.js';

const WEBHOOK_COLUMNS = `tenant_id, environment_id, scope_id, id, name, workflow_id, verification_type, token_header, secret_iv, secret_ciphertext, secret_tag, response_mode, timeout_ms, enabled, version, fires_triggers, created_at, updated_at`;
const DELIVERY_COLUMNS = `tenant_id, environment_id, scope_id, id, webhook_id, workflow_id, received_at, method, headers, body, content_type, outcome, reason, status_code, dedupe_key, run_input, run_id, started_at, start_error, replay_of`;

export interface NewWebhook {
  tenantId: string;
  environmentId: string;
  scopeId: string | null;
  id: string;
  name: string;
  workflowId: string;
  verificationType: string;
  tokenHeader: string | null;
  sealed: SealedSecret | null;
  responseMode: string;
  timeoutMs: number | null;
  enabled: boolean;
}

export interface WebhookChanges {
  name?: string;
  workflowId?: string;
  verificationType?: string;
  tokenHeader?: string | null;
  /** undefined: keep; null: clear; a value: replace. */
  sealed?: SealedSecret | null;
  responseMode?: string;
  timeoutMs?: number | null;
  enabled?: boolean;
}

export interface NewDelivery {
  tenantId: string;
  environmentId: string;
  scopeId: string | null;
  id: string;
  webhookId: string;
  workflowId: string;
  method: string;
  headers: Record<string, string>;
  body: Buffer;
  contentType: string | null;
  outcome: WebhookDeliveryOutcome;
  reason: string | null;
  statusCode: number;
  dedupeKey: string | null;
  runInput: Record<string, unknown> | null;
  /** The id the run will have: given to accepted deliveries when they are recorded. */
  runId: string | null;
  replayOf?: string | null;
}

export interface DeliveryFilter {
  outcome?: WebhookDeliveryOutcome;
  from?: string;
  to?: string;
  beforeId: string | null;
  limit: number;
}

/** Every query on webhook.webhooks and webhook.deliveries; managers come from TenantDb (RLS) unless named. */
export const webhooksRepository = {
  async insert(m: EntityManager, w: NewWebhook): Promise<WebhookRow> {
    const rows = await m.query<WebhookRow[]>(
      `insert into webhook.webhooks (tenant_id, environment_id, scope_id, id, name, workflow_id, verification_type, token_header, secret_iv, secret_ciphertext, secret_tag, response_mode, timeout_ms, enabled)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) returning ${WEBHOOK_COLUMNS}`,
      [
        w.tenantId,
        w.environmentId,
        w.scopeId,
        w.id,
        w.name,
        w.workflowId,
        w.verificationType,
        w.tokenHeader,
        w.sealed?.iv ?? null,
        w.sealed?.ciphertext ?? null,
        w.sealed?.tag ?? null,
        w.responseMode,
        w.timeoutMs,
        w.enabled,
      ],
    );
    return rows[0];
  },

  async list(m: EntityManager, filter: { workflowId?: string; enabled?: boolean; afterId: string | null; limit: number }): Promise<WebhookRow[]> {
    return m.query<WebhookRow[]>(
      `select ${WEBHOOK_COLUMNS} from webhook.webhooks
        where ($1::uuid is null or id > $1) and ($2::uuid is null or workflow_id = $2) and ($3::boolean is null or enabled = $3)
        order by id limit $4`,
      [filter.afterId, filter.workflowId ?? null, filter.enabled ?? null, filter.limit + 1],
    );
  },

  async get(m: EntityManager, id: string, forUpdate = false): Promise<WebhookRow | undefined> {
    const rows = await m.query<WebhookRow[]>(`select ${WEBHOOK_COLUMNS} from webhook.webhooks where id = $1 ${forUpdate ? 'for update' : ''}`, [id]);
    return rows[0];
  },

  async update(m: EntityManager, id: string, c: WebhookChanges): Promise<WebhookRow | undefined> {
    const [rows] = await m.query<[WebhookRow[], number]>(
      `update webhook.webhooks set
         name = coalesce($2, name), workflow_id = coalesce($3, workflow_id),
         verification_type = coalesce($4, verification_type),
         token_header = case when $5::boolean then $6 else token_header end,
         secret_iv = case when $7::boolean then $8 else secret_iv end,
         secret_ciphertext = case when $7::boolean then $9 else secret_ciphertext end,
         secret_tag = case when $7::boolean then $10 else secret_tag end,
         response_mode = coalesce($11, response_mode),
         timeout_ms = case when $12::boolean then $13 else timeout_ms end,
         enabled = coalesce($14, enabled), updated_at = now()
       where id = $1 returning ${WEBHOOK_COLUMNS}`,
      [
        id,
        c.name ?? null,
        c.workflowId ?? null,
        c.verificationType ?? null,
        c.tokenHeader !== undefined,
        c.tokenHeader ?? null,
        c.sealed !== undefined,
        c.sealed?.iv ?? null,
        c.sealed?.ciphertext ?? null,
        c.sealed?.tag ?? null,
        c.responseMode ?? null,
        c.timeoutMs !== undefined,
        c.timeoutMs ?? null,
        c.enabled ?? null,
      ],
    );
    return rows[0];
  },

  /** The webhook and its delivery log, in the caller's transaction (deliveries have no foreign key: see DeferredRunStarts). */
  async delete(m: EntityManager, id: string): Promise<boolean> {
    await m.query(`delete from webhook.deliveries where webhook_id = $1`, [id]);
    const [rows] = await m.query<[{ id: string }[], number]>(`delete from webhook.webhooks where id = $1 returning id`, [id]);
    return rows.length > 0;
  },

  /** Sets the flag only when it is not set, so a second trigger on the webhook does not change its version. */
  async markFiresTriggers(m: EntityManager, id: string): Promise<Pick<WebhookRow, 'id' | 'name' | 'workflow_id'> | undefined> {
    await m.query(`update webhook.webhooks set fires_triggers = true where id = $1 and not fires_triggers`, [id]);
    const rows = await m.query<Pick<WebhookRow, 'id' | 'name' | 'workflow_id'>[]>(`select id, name, workflow_id from webhook.webhooks where id = $1`, [id]);
    return rows[0];
  },

  /** SystemDb: the owner of a webhook, for the public receiving route that knows only the id. */
  async owner(m: EntityManager, id: string): Promise<{ tenant_id: string; environment_id: string; scope_id: string | null } | undefined> {
    const rows = await m.query<{ tenant_id: string; environment_id: string; scope_id: string | null }[]>(
      `select tenant_id, environment_id, scope_id from webhook.webhooks where id = $1`,
      [id],
    );
    return rows[0];
  },
};

export const deliveriesRepository = {
  /** Undefined when a delivery with the same dedupe key exists already (replays have none). */
  async insert(m: EntityManager, d: NewDelivery): Promise<DeliveryRow | undefined> {
    const rows = await m.query<DeliveryRow[]>(
      `insert into webhook.deliveries (tenant_id, environment_id, scope_id, id, webhook_id, workflow_id, method, headers, body, content_type, outcome, reason, status_code, dedupe_key, run_input, replay_of, run_id)
       values ($1, $2, $3, $4, $5, $16, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $17)
       on conflict (tenant_id, webhook_id, dedupe_key) where dedupe_key is not null do nothing
       returning ${DELIVERY_COLUMNS}`,
      [
        d.tenantId,
        d.environmentId,
        d.scopeId,
        d.id,
        d.webhookId,
        d.method,
        JSON.stringify(d.headers),
        d.body,
        d.contentType,
        d.outcome,
        d.reason,
        d.statusCode,
        d.dedupeKey,
        d.runInput === null ? null : JSON.stringify(d.runInput),
        d.replayOf ?? null,
        d.workflowId,
        d.runId,
      ],
    );
    return rows[0];
  },

  async get(m: EntityManager, webhookId: string, id: string): Promise<DeliveryRow | undefined> {
    const rows = await m.query<DeliveryRow[]>(`select ${DELIVERY_COLUMNS} from webhook.deliveries where webhook_id = $1 and id = $2`, [webhookId, id]);
    return rows[0];
  },

  async list(m: EntityManager, webhookId: string, f: DeliveryFilter): Promise<DeliveryRow[]> {
    return m.query<DeliveryRow[]>(
      `select ${DELIVERY_COLUMNS} from webhook.deliveries
        where webhook_id = $1 and ($2::uuid is null or id < $2) and ($3::text is null or outcome = $3)
          and ($4::timestamptz is null or received_at >= $4) and ($5::timestamptz is null or received_at < $5)
        order by id desc limit $6`,
      [webhookId, f.beforeId, f.outcome ?? null, f.from ?? null, f.to ?? null, f.limit + 1],
    );
  },

  /** SystemDb: accepted deliveries older than `graceMs` whose run has not started (the reconciler), with whether their webhook fires triggers. */
  async unstarted(m: EntityManager, graceMs: number, limit: number): Promise<(DeliveryRow & { fires_triggers: boolean | null })[]> {
    return m.query<(DeliveryRow & { fires_triggers: boolean | null })[]>(
      `select ${DELIVERY_COLUMNS.split(', ')
        .map((c) => `d.${c}`)
        .join(', ')}, w.fires_triggers
         from webhook.deliveries d left join webhook.webhooks w on w.tenant_id = d.tenant_id and w.id = d.webhook_id
        where d.outcome = 'accepted' and d.started_at is null and d.start_error is null and d.received_at < now() - make_interval(secs => $1::float8 / 1000)
        order by d.received_at limit $2`,
      [graceMs, limit],
    );
  },

  /**
   * Accepted deliveries whose run has not started for `maxAgeMs` (the run service unreachable all
   * along) are recorded as failed: the reconciler stops trying them. Answers how many.
   */
  async giveUpUnstarted(m: EntityManager, maxAgeMs: number, reason: string): Promise<number> {
    // TypeORM answers an UPDATE with [rows, count], not the rows: rows.length was always 2.
    const [, count] = await m.query<[{ id: string }[], number]>(
      `update webhook.deliveries set start_error = $2
        where outcome = 'accepted' and started_at is null and start_error is null and received_at < now() - make_interval(secs => $1::float8 / 1000)
        returning id`,
      [maxAgeMs, reason],
    );
    return count;
  },
};
