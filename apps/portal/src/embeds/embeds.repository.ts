import type { EntityManager } from 'typeorm';

export const EMBED_KINDS = ['form', 'runs', 'dashboard'] as const;
export type EmbedKind = (typeof EMBED_KINDS)[number];

export interface EmbedRow {
  tenant_id: string;
  environment_id: string;
  scope_id: string;
  id: string;
  kind: EmbedKind;
  target_id: string;
  allowed_origins: string[];
  rate_limit_per_minute: number;
  expires_at: Date;
  revoked_at: Date | null;
  created_by: string | null;
  created_at: Date;
}

const COLUMNS =
  'tenant_id, environment_id, scope_id, id, kind, target_id, allowed_origins, rate_limit_per_minute, expires_at, revoked_at, created_by, created_at';

export const embedsRepository = {
  async insert(m: EntityManager, row: Omit<EmbedRow, 'created_at' | 'revoked_at'>): Promise<EmbedRow> {
    const rows = await m.query<EmbedRow[]>(
      `insert into portal.embeds (tenant_id, environment_id, scope_id, id, kind, target_id, allowed_origins, rate_limit_per_minute, expires_at, created_by)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) returning ${COLUMNS}`,
      [
        row.tenant_id,
        row.environment_id,
        row.scope_id,
        row.id,
        row.kind,
        row.target_id,
        row.allowed_origins,
        row.rate_limit_per_minute,
        row.expires_at,
        row.created_by,
      ],
    );
    return rows[0];
  },

  async get(m: EntityManager, id: string): Promise<EmbedRow | undefined> {
    return (await m.query<EmbedRow[]>(`select ${COLUMNS} from portal.embeds where id = $1`, [id]))[0];
  },

  async list(m: EntityManager, f: { afterId: string | null; kind?: string; targetId?: string; customerId?: string; limit: number }): Promise<EmbedRow[]> {
    return await m.query<EmbedRow[]>(
      `select ${COLUMNS} from portal.embeds
        where ($1::uuid is null or id > $1) and ($2::text is null or kind = $2) and ($3::uuid is null or target_id = $3) and ($4::uuid is null or scope_id = $4)
        order by id limit $5`,
      [f.afterId, f.kind ?? null, f.targetId ?? null, f.customerId ?? null, f.limit + 1],
    );
  },

  async revoke(m: EntityManager, id: string): Promise<boolean> {
    const [, count] = await m.query<[unknown, number]>(`update portal.embeds set revoked_at = coalesce(revoked_at, now()) where id = $1`, [id]);
    return count > 0;
  },
};
