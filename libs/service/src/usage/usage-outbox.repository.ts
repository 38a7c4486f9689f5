import type { EntityManager } from 'typeorm';
import { usageOutboxJson, type PendingUsage, type UsageOutboxRow } from './pending-usage.js';

const COLUMNS = 'tenant_id, environment_id, scope_id, event_id, metric, quantity, key_mode, occurred_at, request_id, actor';
const RECORD = `tenant_id uuid, environment_id uuid, scope_id uuid, event_id uuid, metric text, quantity bigint, key_mode text,
  occurred_at timestamptz, request_id text, actor text`;

/** A publish of a fact that failed; `permanent` when NATS refused it for good. */
export interface UsagePublishFailure {
  tenantId: string;
  eventId: string;
  error: string;
  permanent: boolean;
}

export interface UsagePublishFailureRecord {
  tenant_id: string;
  event_id: string;
  publish_attempts: number;
  publish_error: string;
  given_up: boolean;
}

/** SQL of `<schema>.usage_outbox`; the schema is the service's own (checked by the migration's rule when the outbox is made). */
export const usageOutboxRepository = {
  /** In the caller's transaction. A fact written twice (the same event id) is one row. */
  async insert(m: EntityManager, schema: string, facts: PendingUsage[]): Promise<void> {
    if (!facts.length) return;
    await m.query(
      `insert into ${schema}.usage_outbox (${COLUMNS})
       select ${COLUMNS} from jsonb_to_recordset($1::jsonb) as r(${RECORD})
       on conflict do nothing`,
      [JSON.stringify(facts.map(usageOutboxJson))],
    );
  },

  /**
   * SystemDb, in the relay's transaction: rows left behind for `graceMs` (a failed publish, a
   * crash after the commit), locked. SKIP LOCKED gives each replica other rows.
   */
  async lockStale(m: EntityManager, schema: string, graceMs: number, limit: number): Promise<UsageOutboxRow[]> {
    return m.query<UsageOutboxRow[]>(
      `select ${COLUMNS} from ${schema}.usage_outbox
        where created_at < now() - make_interval(secs => $1::float8 / 1000) and publish_failed_at is null
        order by created_at limit $2 for update skip locked`,
      [graceMs, limit],
    );
  },

  /**
   * SystemDb, in the relay's transaction (the rows are locked): facts a pass could not publish.
   * Each counts an attempt and keeps its error; one refused for good (`permanent`), or written
   * more than `giveUpMs` ago, is given up: failed now, out of the relay's scan, the row kept.
   */
  async recordFailures(m: EntityManager, schema: string, failures: UsagePublishFailure[], giveUpMs: number): Promise<UsagePublishFailureRecord[]> {
    if (!failures.length) return [];
    const [rows] = await m.query<[UsagePublishFailureRecord[], number]>(
      `update ${schema}.usage_outbox o
          set publish_attempts = o.publish_attempts + 1, publish_error = f.error,
              publish_failed_at = case when f.permanent or o.created_at < now() - make_interval(secs => $5::float8 / 1000) then now() end
         from unnest($1::uuid[], $2::uuid[], $3::text[], $4::boolean[]) as f(tenant_id, event_id, error, permanent)
        where o.tenant_id = f.tenant_id and o.event_id = f.event_id and o.publish_failed_at is null
        returning o.tenant_id, o.event_id, o.publish_attempts, o.publish_error, o.publish_failed_at is not null as given_up`,
      [failures.map((f) => f.tenantId), failures.map((f) => f.eventId), failures.map((f) => f.error), failures.map((f) => f.permanent), giveUpMs],
    );
    return rows;
  },

  /**
   * SystemDb: how many facts wait and the oldest one's age in seconds, and how many were given up
   * (the metrics' scrape). Given-up facts are not waiting: they no longer age the backlog.
   */
  async backlog(m: EntityManager, schema: string): Promise<{ facts: number; oldestSeconds: number; failed: number }> {
    const [row] = await m.query<{ facts: number; oldest_seconds: number; failed: number }[]>(
      `select count(*) filter (where publish_failed_at is null)::int as facts,
              coalesce(extract(epoch from now() - min(created_at) filter (where publish_failed_at is null)), 0)::float8 as oldest_seconds,
              count(*) filter (where publish_failed_at is not null)::int as failed
         from ${schema}.usage_outbox`,
    );
    return { facts: row?.facts ?? 0, oldestSeconds: row?.oldest_seconds ?? 0, failed: row?.failed ?? 0 };
  },

  /** SystemDb: the facts JetStream has stored. */
  async remove(m: EntityManager, schema: string, facts: PendingUsage[]): Promise<void> {
    if (!facts.length) return;
    await m.query(
      `delete from ${schema}.usage_outbox o using unnest($1::uuid[], $2::uuid[]) as d(tenant_id, event_id)
        where o.tenant_id = d.tenant_id and o.event_id = d.event_id`,
      [facts.map((f) => f.tenantId), facts.map((f) => f.fact.eventId)],
    );
  },
};
