import type { EntityManager } from 'typeorm';
import { DATA_TABLE_COLUMNS, type ColumnDefinition, type DataTableRow } from './data-table.record.js';

/** Every query on the catalogue (storage.data_tables); managers come from TenantDb (RLS). */
export const dataTablesRepository = {
  async insert(
    m: EntityManager,
    t: { tenantId: string; environmentId: string; id: string; name: string; columns: ColumnDefinition[]; indexes: string[][]; createdBy: string },
  ): Promise<DataTableRow> {
    const rows = await m.query<DataTableRow[]>(
      `insert into storage.data_tables (tenant_id, environment_id, id, name, columns, indexes, created_by)
       values ($1, $2, $3, $4, $5::jsonb, $6::jsonb, $7) returning ${DATA_TABLE_COLUMNS}`,
      [t.tenantId, t.environmentId, t.id, t.name, JSON.stringify(t.columns), JSON.stringify(t.indexes), t.createdBy],
    );
    return rows[0];
  },

  /** Builds the physical table from the catalogue row just inserted (SECURITY DEFINER, see the migration). */
  async createPhysical(m: EntityManager, id: string): Promise<void> {
    await m.query(`select storage.create_data_table($1)`, [id]);
  },

  async dropPhysical(m: EntityManager, id: string): Promise<void> {
    await m.query(`select storage.drop_data_table($1)`, [id]);
  },

  /** ANALYZE by the owner when `changed` rows are a tenth of the table or more; true when it ran. */
  async analyze(m: EntityManager, id: string, changed: number): Promise<boolean> {
    const rows = await m.query<{ ran: boolean }[]>(`select storage.analyze_data_table($1, $2) as ran`, [id, changed]);
    return rows[0]?.ran ?? false;
  },

  async list(m: EntityManager, afterName: string | null, limit: number): Promise<DataTableRow[]> {
    return await m.query<DataTableRow[]>(`select ${DATA_TABLE_COLUMNS} from storage.data_tables where ($1::text is null or name > $1) order by name limit $2`, [
      afterName,
      limit + 1,
    ]);
  },

  async get(m: EntityManager, name: string, forUpdate = false): Promise<DataTableRow | undefined> {
    const rows = await m.query<DataTableRow[]>(`select ${DATA_TABLE_COLUMNS} from storage.data_tables where name = $1 ${forUpdate ? 'for update' : ''}`, [
      name,
    ]);
    return rows[0];
  },

  async byNames(m: EntityManager, names: string[]): Promise<DataTableRow[]> {
    if (!names.length) return [];
    return await m.query<DataTableRow[]>(`select ${DATA_TABLE_COLUMNS} from storage.data_tables where name = any($1::text[])`, [names]);
  },

  async delete(m: EntityManager, id: string): Promise<void> {
    await m.query(`delete from storage.data_tables where id = $1`, [id]);
  },
};
