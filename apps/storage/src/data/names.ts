import { scan } from 'libpg-query';
import type { FieldError } from '@platform/common';

/** Platform views a query may name (see query/platform-views.ts): no data table may take these names. */
export const RESERVED_TABLE_NAMES = new Set(['workflows', 'executions', 'tasks', 'information_schema']);

/** Every data table has these; `rows` would make a one-row body look like a bulk insert. */
export const RESERVED_COLUMN_NAMES = new Set([
  'id',
  'created_at',
  'updated_at',
  'tenant_id',
  'environment_id',
  'scope_id',
  'rows',
  'oid',
  'tableoid',
  'xmin',
  'xmax',
  'cmin',
  'cmax',
  'ctid',
]);

/**
 * SQL keywords other than the unreserved ones (reserved, type/function-name and column-name
 * keywords, as PostgreSQL's own scanner classifies them) are refused as names, so every table and
 * column can be written in a query without quotes.
 */
async function isKeyword(name: string): Promise<boolean> {
  const { tokens } = await scan(name);
  return tokens.length === 1 && tokens[0].keywordKind >= 2;
}

export async function reservedTableName(name: string, field = 'name'): Promise<FieldError | undefined> {
  if (RESERVED_TABLE_NAMES.has(name) || name.startsWith('pg_')) return { field, message: `'${name}' is reserved` };
  if (await isKeyword(name)) return { field, message: `'${name}' is an SQL keyword` };
  return undefined;
}

export async function reservedColumnName(name: string, field: string): Promise<FieldError | undefined> {
  if (RESERVED_COLUMN_NAMES.has(name)) return { field, message: `'${name}' is reserved` };
  if (await isKeyword(name)) return { field, message: `'${name}' is an SQL keyword` };
  return undefined;
}
