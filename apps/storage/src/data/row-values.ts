import type { FieldError } from '@platform/common';
import type { ColumnDefinition, DataTableRow } from './data-table.record.js';
import { SYSTEM_COLUMNS } from './data-table.record.js';

/** A text or json value larger than this is refused: rows are records, not files. */
export const MAX_VALUE_BYTES = 1024 * 1024;

/** A value ready to bind: strings for text, timestamps (ISO) and json (serialized), else as is. */
export type BoundValue = string | number | boolean | null;

const ISO_TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/**
 * ISO 8601 (date, or date and time with an optional zone; no zone means UTC) to epoch
 * milliseconds; undefined when malformed or not a real date (2026-02-30). Parsed by hand so the
 * result never depends on the process's time zone or on Date.parse's leniency.
 */
export function parseTimestamp(text: string): number | undefined {
  const m = ISO_TIMESTAMP.exec(text.trim());
  if (!m) return undefined;
  const [, y, mo, d, h = '0', mi = '0', s = '0', frac = '', zone = 'Z'] = m;
  const ms = Number(frac.padEnd(3, '0').slice(0, 3));
  const local = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), ms);
  const check = new Date(local);
  if (
    check.getUTCFullYear() !== Number(y) ||
    check.getUTCMonth() !== Number(mo) - 1 ||
    check.getUTCDate() !== Number(d) ||
    Number(h) > 23 ||
    Number(mi) > 59 ||
    Number(s) > 59
  )
    return undefined;
  let offset = 0;
  if (zone.toUpperCase() !== 'Z') {
    const digits = zone.replace(':', '');
    const hours = Number(digits.slice(1, 3));
    const minutes = Number(digits.slice(3, 5) || '0');
    if (hours > 15 || minutes > 59) return undefined;
    offset = (digits[0] === '-' ? -1 : 1) * (hours * 60 + minutes) * 60_000;
  }
  return local - offset;
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** Checks one value against its column's type; returns the bound value or the problem. */
export function convertValue(column: ColumnDefinition, value: unknown): { value: BoundValue } | { problem: string } {
  if (value === null || value === undefined) {
    return column.nullable ? { value: null } : { problem: 'must not be null' };
  }
  switch (column.type) {
    case 'text':
      if (typeof value !== 'string') return { problem: `must be a string (got ${typeName(value)})` };
      if (Buffer.byteLength(value, 'utf8') > MAX_VALUE_BYTES) return { problem: `must be at most ${MAX_VALUE_BYTES} bytes` };
      if (value.includes('\u0000')) return { problem: 'must not contain NUL characters' };
      return { value };
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) return { problem: `must be a number (got ${typeName(value)})` };
      return { value };
    case 'boolean':
      if (typeof value !== 'boolean') return { problem: `must be true or false (got ${typeName(value)})` };
      return { value };
    case 'timestamp': {
      const time = typeof value === 'string' ? parseTimestamp(value) : undefined;
      if (time === undefined) return { problem: 'must be an ISO 8601 timestamp, e.g. 2026-11-22T10:00:00Z' };
      return { value: new Date(time).toISOString() };
    }
    case 'json': {
      const text = JSON.stringify(value);
      if (Buffer.byteLength(text, 'utf8') > MAX_VALUE_BYTES) return { problem: `must be at most ${MAX_VALUE_BYTES} bytes as JSON` };
      if (text.includes('\\u0000')) return { problem: 'must not contain NUL characters' };
      return { value: text };
    }
  }
}

export interface ConvertedRow {
  /** Physical column name → bound value, only for the columns the input named (or all, on insert). */
  values: Map<string, BoundValue>;
}

/**
 * Checks a row object against a table: every field must be a column of the right type; on insert,
 * columns not given are null (refused when not nullable). Problems name the field as the client
 * wrote it, prefixed (`rows[3].amount`).
 */
export function convertRow(table: DataTableRow, input: unknown, prefix: string, mode: 'insert' | 'update', problems: FieldError[]): ConvertedRow | undefined {
  const at = (field: string) => (prefix ? `${prefix}.${field}` : field);
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    problems.push({ field: prefix || 'body', message: `must be an object of column values (got ${typeName(input)})` });
    return undefined;
  }
  const byName = new Map(table.columns.map((c) => [c.name, c]));
  const record = input as Record<string, unknown>;
  const values = new Map<string, BoundValue>();
  const before = problems.length;
  for (const key of Object.keys(record)) {
    const column = byName.get(key);
    if (!column) {
      const message = (SYSTEM_COLUMNS as readonly string[]).includes(key)
        ? 'is set by the platform and cannot be written'
        : `is not a column of table '${table.name}'`;
      problems.push({ field: at(key), message });
      continue;
    }
    const converted = convertValue(column, record[key]);
    if ('problem' in converted) problems.push({ field: at(key), message: converted.problem });
    else values.set(column.physical, converted.value);
  }
  if (mode === 'insert') {
    for (const column of table.columns) {
      if (values.has(column.physical) || key(record, column.name)) continue;
      if (!column.nullable) problems.push({ field: at(column.name), message: 'is required' });
      else values.set(column.physical, null);
    }
  } else if (!Object.keys(record).length) {
    problems.push({ field: prefix || 'body', message: 'must name at least one column to change' });
  }
  return problems.length > before ? undefined : { values };
}

function key(record: Record<string, unknown>, name: string): boolean {
  return Object.hasOwn(record, name);
}

/** A row as clients see it: id, the table's columns by name, then the timestamps. */
export function toRowResponse(table: DataTableRow, row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { id: row.id };
  for (const column of table.columns) {
    const value = row[column.physical];
    out[column.name] = value instanceof Date ? value.toISOString() : (value ?? null);
  }
  out.created_at = (row.created_at as Date).toISOString();
  out.updated_at = (row.updated_at as Date).toISOString();
  return out;
}

/** A filter value from a query string, converted to the column's type (400 naming it otherwise). */
export function convertFilter(column: ColumnDefinition, raw: string): { value: BoundValue } | { problem: string } {
  switch (column.type) {
    case 'text':
      return { value: raw };
    case 'number': {
      const n = Number(raw);
      return raw.trim() !== '' && Number.isFinite(n) ? { value: n } : { problem: 'must be a number' };
    }
    case 'boolean':
      return raw === 'true' || raw === 'false' ? { value: raw === 'true' } : { problem: 'must be true or false' };
    case 'timestamp':
      return convertValue({ ...column, nullable: false }, raw);
    case 'json':
      try {
        return { value: JSON.stringify(JSON.parse(raw)) };
      } catch {
        return { problem: 'must be JSON' };
      }
  }
}
