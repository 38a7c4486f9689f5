import { Injectable, Logger } from '@nestjs/common';
import { decodeCursor, newId, toPage, type FieldError, type Page, isUuid } from '@platform/common';
import { TenantDb, type TenantContext } from '@platform/db';
import type { EntityManager } from 'typeorm';
import type { DataTableRow } from './data-table.record.js';
import { dataRowsRepository } from './data-rows.repository.js';
import { dataTablesRepository } from './data-tables.repository.js';
import { assertTableName } from './data-tables.service.js';
import { DataErrors } from './data.errors.js';
import { convertFilter, convertRow, toRowResponse, type BoundValue } from './row-values.js';
import { STORAGE_LIMITS } from '@platform/messaging';

export const MAX_BULK_ROWS = STORAGE_LIMITS.maxBulkRows;
/** Inserts of at least this many rows refresh the table's planner statistics when they changed a tenth of it. */
export const ANALYZE_AFTER_ROWS = 1000;

export type Row = Record<string, unknown>;

/** The unique column a 23505 names, from the generated constraint name `t_<id>_u_<physical>`. */
function uniqueColumn(error: unknown, table: DataTableRow): string | undefined {
  const constraint = (error as { constraint?: string }).constraint ?? '';
  const physical = /_u_(c\d+)$/.exec(constraint)?.[1];
  return table.columns.find((c) => c.physical === physical)?.name;
}

/**
 * Rows of data tables, for HTTP and for workflow steps alike. The context carries the customer
 * scope: rows written by a customer-scoped caller belong to that customer, and RLS shows such a
 * caller only its customer's rows.
 */
/** PostgreSQL: relation does not exist. */
const UNDEFINED_TABLE = '42P01';

@Injectable()
export class DataRowsService {
  private readonly logger = new Logger(DataRowsService.name);

  constructor(private readonly db: TenantDb) {}

  /** HTTP body: one row object, or `{ rows: [...] }` (`rows` is reserved as a column name for this). */
  async insertBody(ctx: TenantContext, tableName: string, body: unknown): Promise<{ row: Row } | { rows: Row[] }> {
    if (body !== null && typeof body === 'object' && !Array.isArray(body) && Object.hasOwn(body, 'rows')) {
      const extra = Object.keys(body).filter((k) => k !== 'rows');
      if (extra.length) throw DataErrors.invalid(extra.map((field) => ({ field, message: 'is not allowed beside rows' })));
      const rows = (body as { rows: unknown }).rows;
      if (!Array.isArray(rows)) throw DataErrors.invalid([{ field: 'rows', message: 'must be an array of row objects' }]);
      return { rows: await this.insert(ctx, tableName, rows, 'rows') };
    }
    const [row] = await this.insert(ctx, tableName, [body], '');
    return { row };
  }

  async insert(ctx: TenantContext, tableName: string, input: unknown[], prefix = 'rows'): Promise<Row[]> {
    assertTableName(tableName);
    if (input.length < 1 || input.length > MAX_BULK_ROWS)
      throw DataErrors.invalid([{ field: prefix || 'rows', message: `must hold 1 to ${MAX_BULK_ROWS} rows` }]);
    const { tableId, rows } = await this.inTable(ctx, tableName, async (m) => {
      const table = await this.table(m, tableName);
      const problems: FieldError[] = [];
      const converted: Map<string, BoundValue>[] = [];
      for (const [i, item] of input.entries()) {
        const row = convertRow(table, item, prefix ? `${prefix}[${i}]` : '', 'insert', problems);
        if (row) converted.push(row.values);
        if (problems.length >= 100) break;
      }
      if (problems.length) throw DataErrors.invalid(problems);
      const ids = converted.map(() => newId());
      const inserted = await this.unique(table, () =>
        dataRowsRepository.insert(m, table, { tenantId: ctx.tenantId, environmentId: ctx.environmentId, scopeId: ctx.scopeId ?? null }, ids, converted),
      );
      // RETURNING order is not promised: answer in the order the rows were sent.
      const byId = new Map(inserted.map((r) => [r.id as string, r]));
      return { tableId: table.id, rows: ids.map((id) => toRowResponse(table, byId.get(id)!)) };
    });
    if (rows.length >= ANALYZE_AFTER_ROWS) await this.refreshStatistics(ctx, tableId, rows.length);
    return rows;
  }

  /**
   * After a bulk load the planner has no or stale statistics until autovacuum gets to the table
   * (up to a minute), and guesses badly meanwhile. The table's owner analyzes it now when the load
   * changed a tenth of it or more. A failure here costs only speed: logged, not answered.
   */
  private async refreshStatistics(ctx: TenantContext, tableId: string, changed: number): Promise<void> {
    try {
      await this.db.run(ctx, (m) => dataTablesRepository.analyze(m, tableId, changed));
    } catch (error) {
      this.logger.warn(`could not refresh statistics of data table ${tableId}: ${(error as Error).message}`);
    }
  }

  async list(ctx: TenantContext, tableName: string, query: Record<string, unknown>): Promise<Page<Row>> {
    assertTableName(tableName);
    const problems: FieldError[] = [];
    const single = (key: string): string | undefined => {
      const value = query[key];
      if (value === undefined) return undefined;
      if (typeof value !== 'string') {
        problems.push({ field: key, message: 'must be given once' });
        return undefined;
      }
      return value;
    };
    const limitText = single('limit');
    const limit = limitText === undefined ? 50 : Number(limitText);
    if (!Number.isInteger(limit) || limit < 1 || limit > 200) problems.push({ field: 'limit', message: 'must be an integer from 1 to 200' });
    const cursorText = single('cursor');
    if (problems.length) throw DataErrors.invalid(problems);
    const after = decodeCursor(cursorText, { id: 'uuid' });
    return this.inTable(ctx, tableName, async (m) => {
      const table = await this.table(m, tableName);
      const equals = new Map<string, BoundValue>();
      for (const key of Object.keys(query)) {
        if (key === 'limit' || key === 'cursor') continue;
        const raw = single(key);
        if (raw === undefined) continue;
        if (key === 'id') {
          if (isUuid(raw)) equals.set('id', raw);
          else problems.push({ field: 'id', message: 'must be a UUID' });
          continue;
        }
        const column = table.columns.find((c) => c.name === key);
        if (!column) {
          problems.push({ field: key, message: `is not a column of table '${table.name}' (filters are column=value)` });
          continue;
        }
        const converted = convertFilter(column, raw);
        if ('problem' in converted) problems.push({ field: key, message: converted.problem });
        else equals.set(column.physical, converted.value);
      }
      if (problems.length) throw DataErrors.invalid(problems);
      const rows = await dataRowsRepository.list(m, table, { equals, afterId: after?.id ?? null, limit });
      return toPage(
        rows,
        limit,
        (r) => toRowResponse(table, r),
        (r) => ({ id: r.id as string }),
      );
    });
  }

  async update(ctx: TenantContext, tableName: string, id: string, values: unknown): Promise<Row> {
    assertTableName(tableName);
    if (!isUuid(id)) throw DataErrors.invalidRowId();
    return this.inTable(ctx, tableName, async (m) => {
      const table = await this.table(m, tableName);
      const problems: FieldError[] = [];
      const converted = convertRow(table, values, '', 'update', problems);
      if (!converted) throw DataErrors.invalid(problems);
      const row = await this.unique(table, () => dataRowsRepository.update(m, table, id, converted.values));
      if (!row) throw DataErrors.rowNotFound();
      return toRowResponse(table, row);
    });
  }

  async delete(ctx: TenantContext, tableName: string, id: string): Promise<Row> {
    assertTableName(tableName);
    if (!isUuid(id)) throw DataErrors.invalidRowId();
    return this.inTable(ctx, tableName, async (m) => {
      const table = await this.table(m, tableName);
      const row = await dataRowsRepository.delete(m, table, id);
      if (!row) throw DataErrors.rowNotFound();
      return toRowResponse(table, row);
    });
  }

  /**
   * A transaction on one table's rows. A table dropped between reading its catalogue row and
   * touching its physical table (a concurrent DELETE of the table) is not found (404), not a 500.
   */
  private async inTable<T>(ctx: TenantContext, name: string, work: (m: EntityManager) => Promise<T>): Promise<T> {
    try {
      return await this.db.run(ctx, work);
    } catch (error) {
      if ((error as { code?: string }).code === UNDEFINED_TABLE) throw DataErrors.tableNotFound(name);
      throw error;
    }
  }

  private async table(m: EntityManager, name: string): Promise<DataTableRow> {
    const table = await dataTablesRepository.get(m, name);
    if (!table) throw DataErrors.tableNotFound(name);
    return table;
  }

  private async unique<T>(table: DataTableRow, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if ((error as { code?: string }).code === '23505') throw DataErrors.uniqueViolation(uniqueColumn(error, table));
      throw error;
    }
  }
}
