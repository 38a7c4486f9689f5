import type { EntityManager } from 'typeorm';
import type { CustomerRecord } from '@platform/messaging';

interface CustomerRow {
  id: string;
  name: string;
  external_id: string | null;
  metadata: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = 'id, name, external_id, metadata, created_at, updated_at';

export function toCustomerRecord(row: CustomerRow): CustomerRecord {
  return { ...row, created_at: row.created_at.toISOString(), updated_at: row.updated_at.toISOString() };
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

  async get(m: EntityManager, id: string): Promise<CustomerRow | undefined> {
    return (await m.query<CustomerRow[]>(`select ${COLUMNS} from account.customers where id = $1`, [id]))[0];
  },

  async list(m: EntityManager, afterId: string | null, externalId: string | undefined, limit: number): Promise<CustomerRow[]> {
    return await m.query<CustomerRow[]>(
      `select ${COLUMNS} from account.customers where ($1::uuid is null or id > $1) and ($2::text is null or external_id = $2) order by id limit $3`,
      [afterId, externalId ?? null, limit + 1],
    );
  },

  async update(
    m: EntityManager,
    id: string,
    changes: { name?: string; external_id?: string | null; metadata?: Record<string, unknown> },
  ): Promise<CustomerRow | undefined> {
    const [rows] = await m.query<[CustomerRow[], number]>(
      `update account.customers set
         name = coalesce($2, name),
         external_id = case when $3::boolean then $4 else external_id end,
         metadata = coalesce($5, metadata),
         updated_at = now()
       where id = $1 returning ${COLUMNS}`,
      [id, changes.name ?? null, changes.external_id !== undefined, changes.external_id ?? null, changes.metadata ?? null],
    );
    return rows[0];
  },

  async delete(m: EntityManager, id: string): Promise<boolean> {
    const [, count] = await m.query<[unknown, number]>(`delete from account.customers where id = $1`, [id]);
    return count > 0;
  },
};
