import type { KeyUse } from '@platform/messaging';
import { SqlFilter } from '@platform/db';
import type { EntityManager } from 'typeorm';

export interface AuditRow {
  id: string;
  key_id: string | null;
  key_name: string | null;
  user_id: string | null;
  method: string;
  endpoint: string;
  status: 'success' | 'error';
  http_status: number;
  request_id: string | null;
  ip: string | null;
  created_at: Date;
}

export interface AuditFilter {
  from: Date;
  to: Date;
  keyId?: string;
  keyName?: string;
  endpoint?: string;
  status?: string;
  after?: { at: Date; id: string };
  limit: number;
}

export interface UsageTotals {
  total: number;
  success: number;
  error: number;
}

const USAGE_FILTER = `key_id = $1 and created_at >= $2 and created_at <= $3`;

/** account.audit_logs: read under the caller's RLS context, written in cross-tenant batches (SystemDb). */
export const auditRepository = {
  async list(m: EntityManager, filter: AuditFilter): Promise<AuditRow[]> {
    const f = new SqlFilter().add('created_at >= ?', filter.from).add('created_at <= ?', filter.to);
    if (filter.keyId) f.add('key_id = ?', filter.keyId);
    if (filter.keyName) f.add('key_name = ?', filter.keyName);
    if (filter.endpoint) f.add('endpoint = ?', filter.endpoint);
    if (filter.status) f.add('status = ?', filter.status);
    if (filter.after) f.add('(created_at, id) < (?, ?)', filter.after.at, filter.after.id);
    const limit = f.param(filter.limit + 1);
    return await m.query<AuditRow[]>(
      `select id, key_id, key_name, user_id, method, endpoint, status, http_status, request_id, ip, created_at
         from account.audit_logs ${f.where} order by created_at desc, id desc limit ${limit}`,
      f.params,
    );
  },

  async keyExists(m: EntityManager, keyId: string): Promise<boolean> {
    return (await m.query<unknown[]>(`select 1 from account.api_keys where id = $1`, [keyId])).length > 0;
  },

  async usageTotals(m: EntityManager, keyId: string, from: Date, to: Date): Promise<UsageTotals> {
    const [totals] = await m.query<UsageTotals[]>(
      `select count(*)::int as total, count(*) filter (where status = 'success')::int as success, count(*) filter (where status = 'error')::int as error
         from account.audit_logs where ${USAGE_FILTER}`,
      [keyId, from, to],
    );
    return totals;
  },

  async usageByEndpoint(m: EntityManager, keyId: string, from: Date, to: Date): Promise<{ endpoint: string; count: number }[]> {
    return await m.query<
      {
        endpoint: string;
        count: number;
      }[]
    >(`select endpoint, count(*)::int as count from account.audit_logs where ${USAGE_FILTER} group by endpoint order by count desc, endpoint limit 100`, [
      keyId,
      from,
      to,
    ]);
  },

  async usageByDay(m: EntityManager, keyId: string, from: Date, to: Date): Promise<{ date: string; count: number }[]> {
    return await m.query<{ date: string; count: number }[]>(
      `select to_char(date_trunc('day', created_at at time zone 'UTC'), 'YYYY-MM-DD') as date, count(*)::int as count
         from account.audit_logs where ${USAGE_FILTER} group by 1 order by 1`,
      [keyId, from, to],
    );
  },

  /** A batch of key uses from every service: each use once (its id), and each key's last use. */
  async recordUses(m: EntityManager, uses: KeyUse[]): Promise<void> {
    const col = <K extends keyof KeyUse>(k: K) => uses.map((u) => u[k]);
    await m.query(
      `insert into account.audit_logs (tenant_id, environment_id, id, scope_id, key_id, key_name, method, endpoint, status, http_status, request_id, ip, created_at)
       select t, e, i, s, k, n, me, ep, case when h < 400 then 'success' else 'error' end, h, r, ip, at
         from unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::uuid[], $5::uuid[], $6::text[], $7::text[], $8::text[], $9::int[], $10::text[], $11::text[], $12::timestamptz[])
              as u(t, e, i, s, k, n, me, ep, h, r, ip, at)
       on conflict do nothing`,
      [
        col('tenantId'),
        col('environmentId'),
        col('id'),
        col('customerId'),
        col('keyId'),
        col('keyName'),
        col('method'),
        col('endpoint'),
        col('httpStatus'),
        col('requestId'),
        col('ip'),
        col('at'),
      ],
    );
    const lastUse = new Map<string, { tenantId: string; at: string }>();
    for (const use of uses) {
      const seen = lastUse.get(use.keyId);
      if (!seen || seen.at < use.at) lastUse.set(use.keyId, { tenantId: use.tenantId, at: use.at });
    }
    const keys = [...lastUse.entries()];
    await m.query(
      `update account.api_keys k set last_used_at = greatest(k.last_used_at, u.at)
         from unnest($1::uuid[], $2::uuid[], $3::timestamptz[]) as u(t, id, at)
        where k.tenant_id = u.t and k.id = u.id`,
      [keys.map(([, v]) => v.tenantId), keys.map(([id]) => id), keys.map(([, v]) => v.at)],
    );
  },
};
