import type { EntityManager } from 'typeorm';
import type { Sealed } from './secret-cipher.js';
import { DATA_KEY_COLUMNS, SEALED_SECRET_COLUMNS, SECRET_META_COLUMNS, type DataKeyRow, type SealedSecretRow, type SecretMetaRow } from './secret.record.js';

export interface NewSecret {
  tenantId: string;
  environmentId: string;
  id: string;
  name: string;
  description: string | null;
  dataKeyId: string;
  cipherVersion: number;
  sealed: Sealed;
  createdBy: string;
}

export interface AccessEntry {
  tenantId: string;
  environmentId: string;
  id: string;
  secretId: string;
  secretName: string;
  action: 'read' | 'create' | 'replace' | 'delete';
  purpose: string;
  actor: string | null;
  requestId: string | null;
}

/** Every query on storage.secrets and storage.secret_access_log; managers come from TenantDb (RLS). */
export const secretsRepository = {
  async insert(m: EntityManager, s: NewSecret): Promise<SecretMetaRow> {
    const rows = await m.query<SecretMetaRow[]>(
      `insert into storage.secrets (tenant_id, environment_id, id, name, description, data_key_id, cipher_version, iv, ciphertext, auth_tag, created_by)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) returning ${SECRET_META_COLUMNS}`,
      [s.tenantId, s.environmentId, s.id, s.name, s.description, s.dataKeyId, s.cipherVersion, s.sealed.iv, s.sealed.ciphertext, s.sealed.tag, s.createdBy],
    );
    return rows[0];
  },

  async list(m: EntityManager, afterName: string | null, limit: number): Promise<SecretMetaRow[]> {
    return await m.query<SecretMetaRow[]>(`select ${SECRET_META_COLUMNS} from storage.secrets where ($1::text is null or name > $1) order by name limit $2`, [
      afterName,
      limit + 1,
    ]);
  },

  async get(m: EntityManager, name: string, forUpdate = false): Promise<SecretMetaRow | undefined> {
    const rows = await m.query<SecretMetaRow[]>(`select ${SECRET_META_COLUMNS} from storage.secrets where name = $1 ${forUpdate ? 'for update' : ''}`, [name]);
    return rows[0];
  },

  async sealed(m: EntityManager, names: string[]): Promise<SealedSecretRow[]> {
    return await m.query<SealedSecretRow[]>(`select ${SEALED_SECRET_COLUMNS} from storage.secrets where name = any($1::text[])`, [names]);
  },

  async replace(
    m: EntityManager,
    name: string,
    dataKeyId: string,
    cipherVersion: number,
    sealed: Sealed,
    description: string | null | undefined,
  ): Promise<SecretMetaRow | undefined> {
    const [rows] = await m.query<[SecretMetaRow[], number]>(
      `update storage.secrets set data_key_id = $2, cipher_version = $3, iv = $4, ciphertext = $5, auth_tag = $6,
         description = case when $7::boolean then $8 else description end, updated_at = now()
       where name = $1 returning ${SECRET_META_COLUMNS}`,
      [name, dataKeyId, cipherVersion, sealed.iv, sealed.ciphertext, sealed.tag, description !== undefined, description ?? null],
    );
    return rows[0];
  },

  async delete(m: EntityManager, name: string): Promise<{ id: string } | undefined> {
    const [rows] = await m.query<[{ id: string }[], number]>(`delete from storage.secrets where name = $1 returning id`, [name]);
    return rows[0];
  },

  async markRead(m: EntityManager, ids: string[]): Promise<void> {
    if (ids.length) await m.query(`update storage.secrets set last_read_at = now() where id = any($1::uuid[])`, [ids]);
  },

  async log(m: EntityManager, entries: AccessEntry[]): Promise<void> {
    if (!entries.length) return;
    const col = <K extends keyof AccessEntry>(k: K) => entries.map((e) => e[k]);
    await m.query(
      `insert into storage.secret_access_log (tenant_id, environment_id, id, secret_id, secret_name, action, purpose, actor, request_id)
       select * from unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::uuid[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[])`,
      [col('tenantId'), col('environmentId'), col('id'), col('secretId'), col('secretName'), col('action'), col('purpose'), col('actor'), col('requestId')],
    );
  },
};

/** Queries on storage.data_keys: the tenant's own through TenantDb, the re-wrap job's through SystemDb. */
export const dataKeysRepository = {
  async find(m: EntityManager, id?: string): Promise<DataKeyRow | undefined> {
    const rows = await m.query<DataKeyRow[]>(`select ${DATA_KEY_COLUMNS} from storage.data_keys ${id ? 'where id = $1' : ''}`, id ? [id] : []);
    return rows[0];
  },

  /** Null when another request created the tenant's data key first; the caller reads that one. */
  async insert(m: EntityManager, row: DataKeyRow): Promise<DataKeyRow | undefined> {
    const rows = await m.query<DataKeyRow[]>(
      `insert into storage.data_keys (tenant_id, environment_id, id, wrap_iv, wrapped_key, wrap_tag, master_key_id, kek_version)
       values ($1, $2, $3, $4, $5, $6, $7, $8)
       on conflict (tenant_id, environment_id) do nothing returning ${DATA_KEY_COLUMNS}`,
      [row.tenant_id, row.environment_id, row.id, row.wrap_iv, row.wrapped_key, row.wrap_tag, row.master_key_id, row.kek_version],
    );
    return rows[0];
  },

  /**
   * Cross-tenant (SystemDb): a batch of data keys wrapped by the given master keys, locked for
   * re-wrapping. Keys marked as failed are left out: each is tried once, not every pass, and
   * they cannot fill the batch in front of the keys that would open.
   */
  async lockWrappedUnder(m: EntityManager, masterKeyIds: string[], limit: number): Promise<DataKeyRow[]> {
    return await m.query<DataKeyRow[]>(
      `select ${DATA_KEY_COLUMNS} from storage.data_keys where master_key_id = any($1::text[]) and rewrap_failed_at is null
       order by tenant_id, id limit $2 for update skip locked`,
      [masterKeyIds, limit],
    );
  },

  /**
   * Cross-tenant (SystemDb): records that these keys would not open (the error kept short). A
   * re-wrap clears it; so does an operator, after restoring a row, by setting rewrap_failed_at to null.
   */
  async markRewrapFailed(m: EntityManager, failures: { tenantId: string; id: string; error: string }[]): Promise<void> {
    if (!failures.length) return;
    await m.query(
      `update storage.data_keys k set rewrap_failed_at = now(), rewrap_error = left(f.error, 200)
         from unnest($1::uuid[], $2::uuid[], $3::text[]) as f(tenant_id, id, error)
        where k.tenant_id = f.tenant_id and k.id = f.id`,
      [failures.map((f) => f.tenantId), failures.map((f) => f.id), failures.map((f) => f.error)],
    );
  },

  /** Cross-tenant (SystemDb): keys marked by an earlier pass and still not re-wrapped. */
  async countRewrapFailed(m: EntityManager): Promise<number> {
    const rows = await m.query<{ n: number }[]>(`select count(*)::int as n from storage.data_keys where rewrap_failed_at is not null`);
    return rows[0].n;
  },

  async countNotUnder(m: EntityManager, masterKeyIds: string[]): Promise<number> {
    const rows = await m.query<{ n: number }[]>(`select count(*)::int as n from storage.data_keys where master_key_id <> all($1::text[])`, [masterKeyIds]);
    return rows[0].n;
  },

  async rewrap(m: EntityManager, row: DataKeyRow): Promise<void> {
    await m.query(
      `update storage.data_keys set wrap_iv = $3, wrapped_key = $4, wrap_tag = $5, master_key_id = $6, kek_version = $7, rewrapped_at = now(),
         rewrap_failed_at = null, rewrap_error = null
       where tenant_id = $1 and id = $2`,
      [row.tenant_id, row.id, row.wrap_iv, row.wrapped_key, row.wrap_tag, row.master_key_id, row.kek_version],
    );
  },
};
