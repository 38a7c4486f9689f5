import type { EntityManager } from 'typeorm';
import type { SealedSecret } from '@platform/common';
import type { ProviderModel, ProviderRow } from './provider.record.js';

const COLUMNS = `tenant_id, environment_id, id, name, base_url, api_key_header, models, secret_iv, secret_ciphertext, secret_tag, created_at, updated_at`;

export interface ProviderChanges {
  baseUrl?: string;
  apiKeyHeader?: string;
  models?: ProviderModel[];
  /** Undefined keeps the key; null removes it. */
  sealed?: SealedSecret | null;
}

/** Every query on ai.providers; managers come from TenantDb (RLS). */
export const providersRepository = {
  async insert(
    m: EntityManager,
    p: {
      tenantId: string;
      environmentId: string;
      id: string;
      name: string;
      baseUrl: string;
      apiKeyHeader: string;
      models: ProviderModel[];
      sealed: SealedSecret | null;
    },
  ): Promise<ProviderRow | undefined> {
    const rows = await m.query<ProviderRow[]>(
      `insert into ai.providers (tenant_id, environment_id, id, name, base_url, api_key_header, models, secret_iv, secret_ciphertext, secret_tag)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
       on conflict (tenant_id, environment_id, name) do nothing returning ${COLUMNS}`,
      [
        p.tenantId,
        p.environmentId,
        p.id,
        p.name,
        p.baseUrl,
        p.apiKeyHeader,
        JSON.stringify(p.models),
        p.sealed?.iv ?? null,
        p.sealed?.ciphertext ?? null,
        p.sealed?.tag ?? null,
      ],
    );
    return rows[0];
  },

  async list(m: EntityManager, afterId: string | null, limit: number): Promise<ProviderRow[]> {
    return m.query<ProviderRow[]>(`select ${COLUMNS} from ai.providers where ($1::uuid is null or id > $1) order by id limit $2`, [afterId, limit + 1]);
  },

  async all(m: EntityManager): Promise<ProviderRow[]> {
    return m.query<ProviderRow[]>(`select ${COLUMNS} from ai.providers order by name limit 500`);
  },

  async get(m: EntityManager, id: string): Promise<ProviderRow | undefined> {
    const rows = await m.query<ProviderRow[]>(`select ${COLUMNS} from ai.providers where id = $1`, [id]);
    return rows[0];
  },

  async byName(m: EntityManager, name: string): Promise<ProviderRow | undefined> {
    const rows = await m.query<ProviderRow[]>(`select ${COLUMNS} from ai.providers where name = $1`, [name]);
    return rows[0];
  },

  async update(m: EntityManager, id: string, c: ProviderChanges): Promise<ProviderRow | undefined> {
    const keepKey = c.sealed === undefined;
    const [rows] = await m.query<[ProviderRow[], number]>(
      `update ai.providers set base_url = coalesce($2, base_url), api_key_header = coalesce($3, api_key_header), models = coalesce($4::jsonb, models),
         secret_iv = case when $5 then secret_iv else $6 end, secret_ciphertext = case when $5 then secret_ciphertext else $7 end,
         secret_tag = case when $5 then secret_tag else $8 end, updated_at = now()
        where id = $1 returning ${COLUMNS}`,
      [
        id,
        c.baseUrl ?? null,
        c.apiKeyHeader ?? null,
        c.models ? JSON.stringify(c.models) : null,
        keepKey,
        c.sealed?.iv ?? null,
        c.sealed?.ciphertext ?? null,
        c.sealed?.tag ?? null,
      ],
    );
    return rows[0];
  },

  async delete(m: EntityManager, id: string): Promise<boolean> {
    const [, count] = await m.query<[unknown[], number]>(`delete from ai.providers where id = $1`, [id]);
    return count > 0;
  },
};
