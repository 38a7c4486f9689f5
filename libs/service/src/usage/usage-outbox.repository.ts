import type { EntityManager } from 'typeorm';
import { usageOutboxJson, type PendingUsage, type UsageOutboxRow } from './pending-usage.js';

const COLUMNS = 'tenant_id, environment_id, scope_id, event_id, metric, quantity, key_mode, occurred_at, request_id, actor';
const RECORD = `tenant_id uuid, environment_id uuid, scope_id uuid, event_id uuid, metric text, quantity bigint, key_mode text,
  occurred_at timestamptz, request_id text, actor text`;

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
        where created_at < now() - make_interval(secs => $1::float8 / 1000)
        order by created_at limit $2 for update skip locked`,
      [graceMs, limit],
    );
  },

  /** SystemDb: how many facts wait and the oldest one's age in seconds (the metrics' scrape). */
  async backlog(m: EntityManager, schema: string): Promise<{ facts: number; oldestSeconds: number }> {
    const [row] = await m.query<{ facts: number; oldest_seconds: number }[]>(
      `select count(*)::int as facts, coalesce(extract(epoch from now() - min(created_at)), 0)::float8 as oldest_seconds from ${schema}.usage_outbox`,
    );
    return { facts: row?.facts ?? 0, oldestSeconds: row?.oldest_seconds ?? 0 };
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
