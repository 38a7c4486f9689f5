import type { EntityManager } from 'typeorm';
import type { Widget } from './widgets.js';

export interface DashboardRow {
  id: string;
  name: string;
  description: string | null;
  widgets: Widget[];
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = 'id, name, description, widgets, created_at, updated_at';
/** pg would send a top-level array as a PostgreSQL array: jsonb goes as JSON text. */
const json = (value: unknown) => (value === undefined ? null : JSON.stringify(value));

export const dashboardsRepository = {
  async insert(m: EntityManager, tenantId: string, environmentId: string, row: Omit<DashboardRow, 'created_at' | 'updated_at'>): Promise<DashboardRow> {
    const rows = await m.query<DashboardRow[]>(
      `insert into portal.dashboards (tenant_id, environment_id, id, name, description, widgets) values ($1, $2, $3, $4, $5, $6::jsonb) returning ${COLUMNS}`,
      [tenantId, environmentId, row.id, row.name, row.description, json(row.widgets)],
    );
    return rows[0];
  },

  async get(m: EntityManager, id: string): Promise<DashboardRow | undefined> {
    return (await m.query<DashboardRow[]>(`select ${COLUMNS} from portal.dashboards where id = $1`, [id]))[0];
  },

  async list(m: EntityManager, afterId: string | null, limit: number): Promise<DashboardRow[]> {
    return await m.query<DashboardRow[]>(`select ${COLUMNS} from portal.dashboards where ($1::uuid is null or id > $1) order by id limit $2`, [
      afterId,
      limit + 1,
    ]);
  },

  async update(m: EntityManager, id: string, c: { name?: string; description?: string | null; widgets?: Widget[] }): Promise<DashboardRow | undefined> {
    const [rows] = await m.query<[DashboardRow[], number]>(
      `update portal.dashboards set name = coalesce($2, name), description = case when $3::boolean then $4 else description end,
              widgets = coalesce($5::jsonb, widgets), updated_at = now()
        where id = $1 returning ${COLUMNS}`,
      [id, c.name ?? null, c.description !== undefined, c.description ?? null, json(c.widgets)],
    );
    return rows[0];
  },

  async delete(m: EntityManager, id: string): Promise<boolean> {
    const [, count] = await m.query<[unknown, number]>(`delete from portal.dashboards where id = $1`, [id]);
    return count > 0;
  },
};
