import type { EntityManager } from 'typeorm';
import type { CustomerRecord } from '@platform/messaging';

interface CustomerRow {
  id: string;
  name: string;
  external_id: string | null;
  metadata: Record<string, unknown>;
  disabled_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = 'id, name, external_id, metadata, disabled_at, created_at, updated_at';

export function toCustomerRecord(row: CustomerRow): CustomerRecord {
  return {
    id: row.id,
    name: row.name,
    external_id: row.external_id,
    metadata: row.metadata,
    status: row.disabled_at ? 'disabled' : 'active',
    disabled_at: row.disabled_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export const customersRepository = {
  async insert(
    m: EntityManager,
    tenantId: string,
    environmentId: string,
    id: string,
    name: string,
    externalId: string | null,
    metadata: Record<string, unknown>,
  ): Promise<CustomerRow> {
    const rows = await m.query<CustomerRow[]>(
      `insert into account.customers (tenant_id, environment_id, id, name, external_id, metadata) values ($1, $2, $3, $4, $5, $6) returning ${COLUMNS}`,
      [tenantId, environmentId, id, name, externalId, metadata],
    );
    return rows[0];
  },

  /** `forShare`: for issuing a key to it, which a concurrent deletion (FOR UPDATE) then waits for. */
  async get(m: EntityManager, id: string, forShare = false): Promise<CustomerRow | undefined> {
    return (await m.query<CustomerRow[]>(`select ${COLUMNS} from account.customers where id = $1${forShare ? ' for share' : ''}`, [id]))[0];
  },

  async list(m: EntityManager, f: { afterId: string | null; externalId?: string; status?: string; name?: string; limit: number }): Promise<CustomerRow[]> {
    return await m.query<CustomerRow[]>(
      `select ${COLUMNS} from account.customers
        where ($1::uuid is null or id > $1) and ($2::text is null or external_id = $2)
          and ($3::text is null or (disabled_at is null) = ($3 = 'active'))
          and ($4::text is null or strpos(lower(name), lower($4)) > 0)
        order by id limit $5`,
      [f.afterId, f.externalId ?? null, f.status ?? null, f.name ?? null, f.limit + 1],
    );
  },

  /** The customer's keys that still verify: their caches are dropped when it is disabled. */
  async liveKeyIds(m: EntityManager, id: string): Promise<string[]> {
    const rows = await m.query<{ id: string }[]>(`select id from account.api_keys where customer_id = $1 and status in ('active', 'rotated')`, [id]);
    return rows.map((r) => r.id);
  },

  async update(
    m: EntityManager,
    id: string,
    changes: { name?: string; external_id?: string | null; metadata?: Record<string, unknown>; status?: string },
  ): Promise<CustomerRow | undefined> {
    const [rows] = await m.query<[CustomerRow[], number]>(
      `update account.customers set
         name = coalesce($2, name),
         external_id = case when $3::boolean then $4 else external_id end,
         metadata = coalesce($5, metadata),
         disabled_at = case $6::text when 'disabled' then coalesce(disabled_at, now()) when 'active' then null else disabled_at end,
         updated_at = now()
       where id = $1 returning ${COLUMNS}`,
      [id, changes.name ?? null, changes.external_id !== undefined, changes.external_id ?? null, changes.metadata ?? null, changes.status ?? null],
    );
    return rows[0];
  },

  /** Revokes every key of the customer that still verifies (active, or rotated within its grace); answers their ids. */
  async revokeKeys(m: EntityManager, id: string): Promise<string[]> {
    const [rows] = await m.query<[{ id: string }[], number]>(
      `update account.api_keys set status = 'revoked', revoked_at = now(), grace_until = null
        where customer_id = $1 and status in ('active', 'rotated') returning id`,
      [id],
    );
    return rows.map((r) => r.id);
  },

  /** Locks the customer against a key being issued for it meanwhile (issuing reads it FOR SHARE). */
  async lock(m: EntityManager, id: string): Promise<boolean> {
    return (await m.query<{ id: string }[]>(`select id from account.customers where id = $1 for update`, [id])).length > 0;
  },

  async delete(m: EntityManager, id: string): Promise<boolean> {
    const [, count] = await m.query<[unknown, number]>(`delete from account.customers where id = $1`, [id]);
    return count > 0;
  },
};
