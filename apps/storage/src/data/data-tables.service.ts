import { Injectable } from '@nestjs/common';
import type { Principal } from '@platform/auth';
import { decodeCursor, type FieldError, newId, type Page, toPage } from '@platform/common';
import { type PageQueryDto } from '@platform/service';
import { TenantDb, type TenantContext } from '@platform/db';
import { SYSTEM_COLUMNS, TABLE_NAME, toDataTableResponse, type ColumnDefinition, type DataTableResponse, type DataTableRow } from './data-table.record.js';
import { dataTablesRepository } from './data-tables.repository.js';
import { DataErrors } from './data.errors.js';
import { MAX_INDEX_COLUMNS, type CreateDataTableRequestDto } from './dto/create-data-table.request.dto.js';
import { reservedColumnName, reservedTableName } from './names.js';

const isUniqueViolation = (error: unknown) => (error as { code?: string }).code === '23505';

/** Data table definitions: the catalogue row and its physical table, made and dropped together. */
@Injectable()
export class DataTablesService {
  constructor(private readonly db: TenantDb) {}

  async create(principal: Principal, dto: CreateDataTableRequestDto): Promise<DataTableResponse> {
    if (principal.scopeId) throw DataErrors.customerScoped();
    const { columns, indexes } = await this.validate(dto);
    const ctx = tenantContext(principal);
    try {
      return await this.db.run(ctx, async (m) => {
        const row = await dataTablesRepository.insert(m, {
          tenantId: ctx.tenantId,
          environmentId: ctx.environmentId,
          id: newId(),
          name: dto.name,
          columns,
          indexes,
          createdBy: `${principal.kind}:${principal.subject}`,
        });
        await dataTablesRepository.createPhysical(m, row.id);
        return toDataTableResponse(row);
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw DataErrors.duplicateTable(dto.name);
      throw error;
    }
  }

  async list(principal: Principal, query: PageQueryDto): Promise<Page<DataTableResponse>> {
    const after = decodeCursor(query.cursor, { name: 'text' });
    const rows = await this.db.run(tenantContext(principal), (m) => dataTablesRepository.list(m, after?.name ?? null, query.limit));
    return toPage(rows, query.limit, toDataTableResponse, (r) => ({ name: r.name }));
  }

  async get(principal: Principal, name: string): Promise<DataTableResponse> {
    assertTableName(name);
    const row = await this.db.run(tenantContext(principal), (m) => dataTablesRepository.get(m, name));
    if (!row) throw DataErrors.tableNotFound(name);
    return toDataTableResponse(row);
  }

  /** Drops the table with all its rows (every customer's): tenant-wide credentials only. */
  async delete(principal: Principal, name: string): Promise<void> {
    if (principal.scopeId) throw DataErrors.customerScoped();
    assertTableName(name);
    await this.db.run(tenantContext(principal), async (m) => {
      const row = await dataTablesRepository.get(m, name, true);
      if (!row) throw DataErrors.tableNotFound(name);
      await dataTablesRepository.dropPhysical(m, row.id);
      await dataTablesRepository.delete(m, row.id);
    });
  }

  private async validate(dto: CreateDataTableRequestDto): Promise<Pick<DataTableRow, 'columns' | 'indexes'>> {
    const problems: FieldError[] = [];
    const push = (p: FieldError | undefined) => p && problems.push(p);
    push(await reservedTableName(dto.name));
    const seen = new Set<string>();
    const columns: ColumnDefinition[] = [];
    for (const [i, c] of dto.columns.entries()) {
      const field = `columns[${i}].name`;
      push(await reservedColumnName(c.name, field));
      if (seen.has(c.name)) push({ field, message: `'${c.name}' is already a column of this table` });
      seen.add(c.name);
      columns.push({ name: c.name, type: c.type, nullable: c.nullable ?? true, unique: c.unique ?? false, physical: `c${i + 1}` });
    }
    const indexes = dto.indexes ?? [];
    const indexable = new Set<string>([...SYSTEM_COLUMNS, ...seen]);
    for (const [i, index] of indexes.entries()) {
      if (index.length < 1 || index.length > MAX_INDEX_COLUMNS) push({ field: `indexes[${i}]`, message: `must name 1 to ${MAX_INDEX_COLUMNS} columns` });
      const inIndex = new Set<string>();
      for (const [j, member] of index.slice(0, MAX_INDEX_COLUMNS + 1).entries()) {
        const field = `indexes[${i}][${j}]`;
        if (typeof member !== 'string' || !indexable.has(member))
          push({ field, message: `${String(JSON.stringify(member)).slice(0, 80)} is not a column of this table` });
        else if (inIndex.has(member)) push({ field, message: `'${member}' appears twice in this index` });
        else inIndex.add(member);
      }
    }
    if (problems.length) throw DataErrors.invalid(problems);
    return { columns, indexes };
  }
}

export function tenantContext(principal: Principal): TenantContext {
  return { tenantId: principal.tenantId, environmentId: principal.environmentId, scopeId: principal.scopeId };
}

export function assertTableName(name: string): void {
  if (!TABLE_NAME.test(name)) throw DataErrors.invalidTableName();
}
