import type { EntityManager } from 'typeorm';
import { RESOURCE_COLUMNS, type ResourceFields, type ResourceRow } from './resource.record.js';

/** Every query on storage.resources; callers pass a manager from TenantDb (RLS). */
export const resourcesRepository = {
  async insert(
    m: EntityManager,
    owner: { tenantId: string; environmentId: string; scopeId: string | null },
    id: string,
    fields: ResourceFields,
  ): Promise<ResourceRow> {
    const rows = await m.query<ResourceRow[]>(
      `insert into storage.resources (tenant_id, environment_id, scope_id, id, name, type, config, description)
       values ($1, $2, $3, $4, $5, $6, $7, $8) returning ${RESOURCE_COLUMNS}`,
      [owner.tenantId, owner.environmentId, owner.scopeId, id, fields.name, fields.type, fields.config, fields.description],
    );
    return rows[0];
  },

  async get(m: EntityManager, id: string, forUpdate = false): Promise<ResourceRow | undefined> {
    return (await m.query<ResourceRow[]>(`select ${RESOURCE_COLUMNS} from storage.resources where id = $1 ${forUpdate ? 'for update' : ''}`, [id]))[0];
  },

  /** By name; the cursor is the last name returned (names are unique). */
  async list(m: EntityManager, filter: { type?: string; afterName?: string; limit: number }): Promise<ResourceRow[]> {
    return await m.query<ResourceRow[]>(
      `select ${RESOURCE_COLUMNS} from storage.resources
        where ($1::text is null or type = $1) and ($2::text is null or name > $2)
        order by name limit $3`,
      [filter.type ?? null, filter.afterName ?? null, filter.limit + 1],
    );
  },

  async update(m: EntityManager, id: string, fields: ResourceFields): Promise<ResourceRow | undefined> {
    const [rows] = await m.query<[ResourceRow[], number]>(
      `update storage.resources set name = $2, type = $3, config = $4, description = $5, updated_at = date_trunc('milliseconds', now())
        where id = $1 returning ${RESOURCE_COLUMNS}`,
      [id, fields.name, fields.type, fields.config, fields.description],
    );
    return rows[0];
  },

  async delete(m: EntityManager, id: string): Promise<boolean> {
    const [, count] = await m.query<[unknown, number]>(`delete from storage.resources where id = $1`, [id]);
    return count > 0;
  },
};
