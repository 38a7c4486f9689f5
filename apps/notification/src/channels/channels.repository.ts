import type { EntityManager } from 'typeorm';
import type { SealedSecret } from '@platform/common';
import type { ChannelConfig, ChannelRow } from './channel.record.js';

const COLUMNS = `tenant_id, environment_id, scope_id, id, name, kind, config, secret_iv, secret_ciphertext, secret_tag, enabled, created_at, updated_at`;

export interface NewChannel {
  tenantId: string;
  environmentId: string;
  scopeId: string | null;
  id: string;
  name: string;
  kind: string;
  config: ChannelConfig;
  sealed: SealedSecret | null;
  enabled: boolean;
}

export interface ChannelChanges {
  name?: string;
  config?: ChannelConfig;
  /** undefined: keep; a value: replace. */
  sealed?: SealedSecret | null;
  enabled?: boolean;
}

/** Every query on notification.channels; managers come from TenantDb (RLS). */
export const channelsRepository = {
  async insert(m: EntityManager, c: NewChannel): Promise<ChannelRow> {
    const rows = await m.query<ChannelRow[]>(
      `insert into notification.channels (tenant_id, environment_id, scope_id, id, name, kind, config, secret_iv, secret_ciphertext, secret_tag, enabled)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) returning ${COLUMNS}`,
      [
        c.tenantId,
        c.environmentId,
        c.scopeId,
        c.id,
        c.name,
        c.kind,
        JSON.stringify(c.config),
        c.sealed?.iv ?? null,
        c.sealed?.ciphertext ?? null,
        c.sealed?.tag ?? null,
        c.enabled,
      ],
    );
    return rows[0];
  },

  async list(m: EntityManager, filter: { kind?: string; afterId: string | null; limit: number }): Promise<ChannelRow[]> {
    return m.query<ChannelRow[]>(
      `select ${COLUMNS} from notification.channels where ($1::uuid is null or id > $1) and ($2::text is null or kind = $2) order by id limit $3`,
      [filter.afterId, filter.kind ?? null, filter.limit + 1],
    );
  },

  async get(m: EntityManager, id: string, forUpdate = false): Promise<ChannelRow | undefined> {
    const rows = await m.query<ChannelRow[]>(`select ${COLUMNS} from notification.channels where id = $1 ${forUpdate ? 'for update' : ''}`, [id]);
    return rows[0];
  },

  async update(m: EntityManager, id: string, c: ChannelChanges): Promise<ChannelRow | undefined> {
    const [rows] = await m.query<[ChannelRow[], number]>(
      `update notification.channels set
         name = coalesce($2, name), config = coalesce($3::jsonb, config), enabled = coalesce($4, enabled),
         secret_iv = case when $5::boolean then $6 else secret_iv end,
         secret_ciphertext = case when $5::boolean then $7 else secret_ciphertext end,
         secret_tag = case when $5::boolean then $8 else secret_tag end,
         updated_at = now()
       where id = $1 returning ${COLUMNS}`,
      [
        id,
        c.name ?? null,
        c.config ? JSON.stringify(c.config) : null,
        c.enabled ?? null,
        c.sealed !== undefined,
        c.sealed?.iv ?? null,
        c.sealed?.ciphertext ?? null,
        c.sealed?.tag ?? null,
      ],
    );
    return rows[0];
  },

  async delete(m: EntityManager, id: string): Promise<boolean> {
    const [rows] = await m.query<[{ id: string }[], number]>(`delete from notification.channels where id = $1 returning id`, [id]);
    return rows.length > 0;
  },
};
