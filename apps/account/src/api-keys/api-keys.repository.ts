import { SqlFilter } from '@platform/db';
import type { EntityManager } from 'typeorm';
import { API_KEY_COLUMNS, type ApiKeyRow, type NewApiKey } from './api-key.record.js';

export interface KeyListFilter {
  status?: string;
  type?: string;
  dataPlaneId?: string;
  customerId?: string;
  afterId?: string;
  limit: number;
}

/** Every query on account.api_keys; callers pass a manager from TenantDb (RLS) or SystemDb. */
export const apiKeysRepository = {
  async insert(m: EntityManager, key: NewApiKey): Promise<ApiKeyRow> {
    const [row] = await m.query<ApiKeyRow[]>(
      `insert into account.api_keys (tenant_id, environment_id, id, scope_id, name, type, mode, customer_id, scopes, prefix, key_hash, expires_at, created_by)
       values ($1, $2, $3, $4, $5, $6, $7, $4, $8, $9, $10, $11, $12)
       returning ${API_KEY_COLUMNS}`,
      [key.tenantId, key.environmentId, key.id, key.customerId, key.name, key.type, key.mode, key.scopes, key.prefix, key.hash, key.expiresAt, key.createdBy],
    );
    return row;
  },

  async get(m: EntityManager, id: string, forUpdate = false): Promise<ApiKeyRow | undefined> {
    const rows = await m.query<ApiKeyRow[]>(`select ${API_KEY_COLUMNS} from account.api_keys where id = $1 ${forUpdate ? 'for update' : ''}`, [id]);
    return rows[0];
  },

  async list(m: EntityManager, filter: KeyListFilter): Promise<ApiKeyRow[]> {
    const f = new SqlFilter();
    // The status a record shows (an active key past its date is expired before the sweep stores it).
    if (filter.status === 'expired') f.add(`(status = ? or (status = 'active' and expires_at <= now()))`, 'expired');
    else if (filter.status === 'active') f.add(`status = ? and (expires_at is null or expires_at > now())`, 'active');
    else if (filter.status) f.add('status = ?', filter.status);
    if (filter.type) f.add('type = ?', filter.type);
    if (filter.dataPlaneId) f.add('environment_id = ?', filter.dataPlaneId);
    if (filter.customerId) f.add('customer_id = ?', filter.customerId);
    if (filter.afterId) f.add('id < ?', filter.afterId);
    const limit = f.param(filter.limit + 1);
    return await m.query<ApiKeyRow[]>(`select ${API_KEY_COLUMNS} from account.api_keys ${f.where} order by id desc limit ${limit}`, f.params);
  },

  async revoke(m: EntityManager, id: string): Promise<ApiKeyRow> {
    // TypeORM answers an UPDATE … RETURNING with [rows, count].
    const [rows] = await m.query<[ApiKeyRow[], number]>(
      `update account.api_keys set status = 'revoked', revoked_at = now(), grace_until = null where id = $1 returning ${API_KEY_COLUMNS}`,
      [id],
    );
    return rows[0];
  },

  async markRotated(m: EntityManager, id: string, replacedBy: string, graceUntil: Date | null): Promise<ApiKeyRow> {
    const [rows] = await m.query<[ApiKeyRow[], number]>(
      `update account.api_keys set status = 'rotated', rotated_at = now(), replaced_by = $2, grace_until = $3 where id = $1 returning ${API_KEY_COLUMNS}`,
      [id, replacedBy, graceUntil],
    );
    return rows[0];
  },
};

/**
 * The verification lookup: by hash, across tenants, so only through SystemDb. A customer key is
 * found only while its customer exists and is enabled (a deleted customer's keys are revoked too).
 */
export async function findKeyByHash(m: EntityManager, hash: Buffer): Promise<ApiKeyRow | undefined> {
  const rows = await m.query<ApiKeyRow[]>(
    `select ${API_KEY_COLUMNS} from account.api_keys k where key_hash = $1
        and (k.customer_id is null
          or exists (select 1 from account.customers c where c.tenant_id = k.tenant_id and c.id = k.customer_id and c.disabled_at is null))`,
    [hash],
  );
  return rows[0];
}

/** Active keys past their expiry date become expired, across tenants (SystemDb); answers their ids. */
export async function expireDueKeys(m: EntityManager): Promise<string[]> {
  const [rows] = await m.query<[{ id: string }[], number]>(
    `update account.api_keys set status = 'expired' where status = 'active' and expires_at <= now() returning id`,
  );
  return rows.map((r) => r.id);
}

/**
 * Active keys expiring within `windowMs` that were never announced, across tenants (SystemDb),
 * with ids after `afterId` (a pass walks the keys by id, so one it failed to announce is not taken
 * again in the same pass), locked for the announcing transaction. SKIP LOCKED: replicas take
 * different keys, never the same twice. A key past its expiry date is never taken: its notice is
 * moot (giveUpExpiryNotices records the ones that had failed).
 */
export async function lockKeysToAnnounce(m: EntityManager, windowMs: number, limit: number, afterId: string | null = null): Promise<ApiKeyRow[]> {
  return m.query<ApiKeyRow[]>(
    `select ${API_KEY_COLUMNS} from account.api_keys
      where status = 'active' and expires_at is not null and expiry_notice_at is null
        and expires_at > now() and expires_at <= now() + $1 * interval '1 millisecond'
        and ($3::uuid is null or id > $3::uuid)
      order by id limit $2 for update skip locked`,
    [windowMs, limit, afterId],
  );
}

export interface KeyRef {
  tenantId: string;
  id: string;
}

/** Records that these keys' expiry was announced, in the transaction that locked them. */
export async function markExpiryAnnounced(m: EntityManager, keys: KeyRef[]): Promise<void> {
  if (!keys.length) return;
  await m.query(
    `update account.api_keys k set expiry_notice_at = now(), expiry_notice_error = null
       from unnest($1::uuid[], $2::uuid[]) as s(tenant_id, id) where k.tenant_id = s.tenant_id and k.id = s.id`,
    [keys.map((k) => k.tenantId), keys.map((k) => k.id)],
  );
}

/** Records a failed attempt to publish each key's notice, its error kept short (in the transaction that locked them): the key stays for the next pass. */
export async function recordExpiryNoticeFailures(m: EntityManager, failures: (KeyRef & { error: string })[]): Promise<void> {
  if (!failures.length) return;
  await m.query(
    `update account.api_keys k set expiry_notice_attempts = k.expiry_notice_attempts + 1, expiry_notice_error = left(s.error, 200)
       from unnest($1::uuid[], $2::uuid[], $3::text[]) as s(tenant_id, id, error) where k.tenant_id = s.tenant_id and k.id = s.id`,
    [failures.map((f) => f.tenantId), failures.map((f) => f.id), failures.map((f) => f.error)],
  );
}

export interface GivenUpNotice extends KeyRef {
  attempts: number;
  error: string | null;
}

/**
 * Across tenants (SystemDb): keys that reached their expiry date with their notice still unsent
 * after failed attempts are recorded as given up (`expiry_notice_failed_at`), once each; answers them.
 */
export async function giveUpExpiryNotices(m: EntityManager): Promise<GivenUpNotice[]> {
  const [rows] = await m.query<[GivenUpNotice[], number]>(
    `update account.api_keys set expiry_notice_failed_at = now()
      where expiry_notice_attempts > 0 and expiry_notice_at is null and expiry_notice_failed_at is null and expires_at <= now()
      returning tenant_id as "tenantId", id, expiry_notice_attempts as attempts, expiry_notice_error as error`,
  );
  return rows;
}
