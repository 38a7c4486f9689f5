import type { EntityManager } from 'typeorm';
import type { SealedSecret } from '@platform/common';
import type { AuthSettings, ConnectionRow, ConnectionStatus } from './connection.record.js';

const COLUMNS = `tenant_id, environment_id, scope_id, id, name, connector_id, auth_type, auth_settings, settings, secret_iv, secret_ciphertext, secret_tag,
  status, status_reason, token_expires_at, token_refreshed_at, token_refresh_count, last_tested_at, last_test_ok, created_by, created_at, updated_at`;

export interface NewConnection {
  tenantId: string;
  environmentId: string;
  scopeId: string | null;
  id: string;
  name: string;
  connectorId: string;
  authType: string;
  authSettings: AuthSettings;
  settings: Record<string, unknown>;
  sealed: SealedSecret | null;
  status: ConnectionStatus;
  tokenExpiresAt: Date | null;
  createdBy: string;
}

export interface ConnectionChanges {
  name?: string;
  authSettings?: AuthSettings;
  settings?: Record<string, unknown>;
  /** undefined: keep; a value: replace. */
  sealed?: SealedSecret | null;
  status?: ConnectionStatus;
  statusReason?: string | null;
  tokenExpiresAt?: Date | null;
  refreshed?: boolean;
}

/**
 * `own`: the caller's customer (its API sees only its own connections, though its runs may use the
 * tenant's); null for a tenant-wide caller, who sees every connection of the environment.
 */
const OWN = `($2::uuid is null or scope_id = $2)`;

/** Every query on connection.connections; managers come from TenantDb (RLS). */
export const connectionsRepository = {
  async insert(m: EntityManager, c: NewConnection): Promise<ConnectionRow> {
    const rows = await m.query<ConnectionRow[]>(
      `insert into connection.connections (tenant_id, environment_id, scope_id, id, name, connector_id, auth_type, auth_settings, settings,
         secret_iv, secret_ciphertext, secret_tag, status, token_expires_at, created_by)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) returning ${COLUMNS}`,
      [
        c.tenantId,
        c.environmentId,
        c.scopeId,
        c.id,
        c.name,
        c.connectorId,
        c.authType,
        JSON.stringify(c.authSettings),
        JSON.stringify(c.settings),
        c.sealed?.iv ?? null,
        c.sealed?.ciphertext ?? null,
        c.sealed?.tag ?? null,
        c.status,
        c.tokenExpiresAt,
        c.createdBy,
      ],
    );
    return rows[0];
  },

  async list(
    m: EntityManager,
    f: { own: string | null; connectorId?: string; customerId?: string; status?: string; afterId: string | null; limit: number },
  ): Promise<ConnectionRow[]> {
    return m.query<ConnectionRow[]>(
      `select ${COLUMNS} from connection.connections
        where ($1::uuid is null or id > $1) and ${OWN} and ($3::text is null or connector_id = $3) and ($4::uuid is null or scope_id = $4)
          and ($5::text is null or status = $5)
        order by id limit $6`,
      [f.afterId, f.own, f.connectorId ?? null, f.customerId ?? null, f.status ?? null, f.limit + 1],
    );
  },

  async get(m: EntityManager, id: string, own: string | null, forUpdate = false): Promise<ConnectionRow | undefined> {
    const rows = await m.query<ConnectionRow[]>(`select ${COLUMNS} from connection.connections where id = $1 and ${OWN} ${forUpdate ? 'for update' : ''}`, [
      id,
      own,
    ]);
    return rows[0];
  },

  /** The customer's own connection of a connector (the oldest, when it has several). */
  async forCustomer(m: EntityManager, connectorId: string, customerId: string): Promise<ConnectionRow | undefined> {
    const rows = await m.query<ConnectionRow[]>(
      `select ${COLUMNS} from connection.connections where connector_id = $1 and scope_id = $2 order by created_at, id limit 1`,
      [connectorId, customerId],
    );
    return rows[0];
  },

  async update(m: EntityManager, id: string, c: ConnectionChanges): Promise<ConnectionRow | undefined> {
    const [rows] = await m.query<[ConnectionRow[], number]>(
      `update connection.connections set
         name = coalesce($2, name), auth_settings = coalesce($3::jsonb, auth_settings), settings = coalesce($4::jsonb, settings),
         secret_iv = case when $5::boolean then $6 else secret_iv end,
         secret_ciphertext = case when $5::boolean then $7 else secret_ciphertext end,
         secret_tag = case when $5::boolean then $8 else secret_tag end,
         status = coalesce($9, status),
         status_reason = case when $10::boolean then $11 else status_reason end,
         token_expires_at = case when $12::boolean then $13::timestamptz else token_expires_at end,
         token_refreshed_at = case when $14::boolean then now() else token_refreshed_at end,
         token_refresh_count = token_refresh_count + case when $14::boolean then 1 else 0 end,
         updated_at = now()
       where id = $1 returning ${COLUMNS}`,
      [
        id,
        c.name ?? null,
        c.authSettings ? JSON.stringify(c.authSettings) : null,
        c.settings ? JSON.stringify(c.settings) : null,
        c.sealed !== undefined,
        c.sealed?.iv ?? null,
        c.sealed?.ciphertext ?? null,
        c.sealed?.tag ?? null,
        c.status ?? null,
        c.statusReason !== undefined,
        c.statusReason ?? null,
        c.tokenExpiresAt !== undefined,
        c.tokenExpiresAt ?? null,
        c.refreshed === true,
      ],
    );
    return rows[0];
  },

  async recordTest(m: EntityManager, id: string, ok: boolean): Promise<void> {
    await m.query(`update connection.connections set last_tested_at = now(), last_test_ok = $2 where id = $1`, [id, ok]);
  },

  async delete(m: EntityManager, id: string, own: string | null): Promise<boolean> {
    const [rows] = await m.query<[{ id: string }[], number]>(`delete from connection.connections where id = $1 and ${OWN} returning id`, [id, own]);
    return rows.length > 0;
  },
};
