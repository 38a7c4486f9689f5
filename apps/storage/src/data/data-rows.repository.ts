import type { EntityManager } from 'typeorm';
import { PG_TYPES, qualifiedPhysicalTable, type DataTableRow } from './data-table.record.js';
import type { BoundValue } from './row-values.js';

const quote = (identifier: string) => `"${identifier.replace(/"/g, '""')}"`;

/** Physical columns read back for a row: generated names only, never user text. */
function selectList(table: DataTableRow): string {
  return ['id', 'created_at', 'updated_at', ...table.columns.map((c) => quote(c.physical))].join(', ');
}

export interface RowFilter {
  /** Physical column → value; equality. */
  equals: Map<string, BoundValue>;
  afterId: string | null;
  limit: number;
}

type Raw = Record<string, unknown>;

/**
 * Rows of a data table's physical table. Identifiers are the catalogue's generated names; every
 * value is a bound parameter. RLS on the physical table confines each statement to the caller's
 * tenant, environment and customer scope.
 */
export const dataRowsRepository = {
  /** One statement for 1 to 10,000 rows: one array parameter per column, unnested server-side. */
  async insert(
    m: EntityManager,
    table: DataTableRow,
    ctx: { tenantId: string; environmentId: string; scopeId: string | null },
    ids: string[],
    rows: Map<string, BoundValue>[],
  ): Promise<Raw[]> {
    const columns = table.columns;
    const params: unknown[] = [ctx.tenantId, ctx.environmentId, ctx.scopeId, ids];
    const unnest: string[] = ['$4::uuid[]'];
    const pick: string[] = ['u.id'];
    for (const [i, column] of columns.entries()) {
      params.push(rows.map((r) => r.get(column.physical) ?? null));
      // json travels as text and is cast per value: a JS array parameter is a PostgreSQL array.
      unnest.push(column.type === 'json' ? `$${i + 5}::text[]` : `$${i + 5}::${PG_TYPES[column.type]}[]`);
      pick.push(column.type === 'json' ? `u.v${i}::jsonb` : `u.v${i}`);
    }
    const names = ['id', ...columns.map((_, i) => `v${i}`)].join(', ');
    const sql = `insert into ${qualifiedPhysicalTable(table.id)} (tenant_id, environment_id, scope_id, id${columns.map((c) => `, ${quote(c.physical)}`).join('')})
      select $1::uuid, $2::uuid, $3::uuid, ${pick.join(', ')} from unnest(${unnest.join(', ')}) as u(${names})
      returning ${selectList(table)}`;
    return await m.query<Raw[]>(sql, params);
  },

  async list(m: EntityManager, table: DataTableRow, filter: RowFilter): Promise<Raw[]> {
    const params: unknown[] = [];
    const where: string[] = [];
    for (const [physical, value] of filter.equals) {
      params.push(value);
      const column = table.columns.find((c) => c.physical === physical);
      const cast = physical === 'id' ? 'uuid' : column ? PG_TYPES[column.type] : 'text';
      where.push(`${quote(physical)} = $${params.length}::${cast}`);
    }
    if (filter.afterId) {
      params.push(filter.afterId);
      where.push(`id > $${params.length}::uuid`);
    }
    params.push(filter.limit + 1);
    return await m.query<Raw[]>(
      `select ${selectList(table)} from ${qualifiedPhysicalTable(table.id)} ${where.length ? `where ${where.join(' and ')}` : ''} order by id limit $${params.length}`,
      params,
    );
  },

  async update(m: EntityManager, table: DataTableRow, id: string, values: Map<string, BoundValue>): Promise<Raw | undefined> {
    const params: unknown[] = [id];
    const sets: string[] = [];
    for (const [physical, value] of values) {
      const column = table.columns.find((c) => c.physical === physical)!;
      params.push(value);
      sets.push(`${quote(physical)} = $${params.length}::${PG_TYPES[column.type]}`);
    }
    const [rows] = await m.query<[Raw[], number]>(
      `update ${qualifiedPhysicalTable(table.id)} set ${sets.join(', ')}, updated_at = now() where id = $1 returning ${selectList(table)}`,
      params,
    );
    return rows[0];
  },

  async delete(m: EntityManager, table: DataTableRow, id: string): Promise<Raw | undefined> {
    const [rows] = await m.query<[Raw[], number]>(`delete from ${qualifiedPhysicalTable(table.id)} where id = $1 returning ${selectList(table)}`, [id]);
    return rows[0];
  },
};
