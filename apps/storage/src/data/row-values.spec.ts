import { describe, expect, it } from '@jest/globals';
import type { FieldError } from '@platform/common';
import type { DataTableRow } from './data-table.record.js';
import { convertFilter, convertRow, parseTimestamp } from './row-values.js';

const table: DataTableRow = {
  id: '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e',
  name: 'orders',
  columns: [
    { name: 'customer', type: 'text', nullable: false, unique: false, physical: 'c1' },
    { name: 'amount', type: 'number', nullable: true, unique: false, physical: 'c2' },
    { name: 'paid', type: 'boolean', nullable: true, unique: false, physical: 'c3' },
    { name: 'paid_at', type: 'timestamp', nullable: true, unique: false, physical: 'c4' },
    { name: 'meta', type: 'json', nullable: true, unique: false, physical: 'c5' },
  ],
  indexes: [],
  created_at: new Date(),
  updated_at: new Date(),
};

describe('row values', () => {
  it('converts a valid row to physical columns, filling absent nullable columns with null', () => {
    const problems: FieldError[] = [];
    const row = convertRow(table, { customer: 'Globex', amount: 12.5, paid_at: '2026-11-22T10:00:00+02:00', meta: { a: [1] } }, '', 'insert', problems);
    expect(problems).toEqual([]);
    expect(Object.fromEntries(row!.values)).toEqual({ c1: 'Globex', c2: 12.5, c3: null, c4: '2026-11-22T08:00:00.000Z', c5: '{"a":[1]}' });
  });

  it('names every wrong field with its path', () => {
    const problems: FieldError[] = [];
    convertRow(table, { amount: '12', paid: 'yes', paid_at: 'tomorrow', nope: 1, id: 'x' }, 'rows[3]', 'insert', problems);
    expect(problems).toEqual([
      { field: 'rows[3].amount', message: 'must be a number (got a string)' },
      { field: 'rows[3].paid', message: 'must be true or false (got a string)' },
      { field: 'rows[3].paid_at', message: 'must be an ISO 8601 timestamp, e.g. 2026-11-22T10:00:00Z' },
      { field: 'rows[3].nope', message: "is not a column of table 'orders'" },
      { field: 'rows[3].id', message: 'is set by the platform and cannot be written' },
      { field: 'rows[3].customer', message: 'is required' },
    ]);
  });

  it('refuses null in a required column, an empty update and a non-object row', () => {
    const problems: FieldError[] = [];
    convertRow(table, { customer: null }, '', 'update', problems);
    convertRow(table, {}, '', 'update', problems);
    convertRow(table, [1, 2], 'rows[0]', 'insert', problems);
    expect(problems).toEqual([
      { field: 'customer', message: 'must not be null' },
      { field: 'body', message: 'must name at least one column to change' },
      { field: 'rows[0]', message: 'must be an object of column values (got an array)' },
    ]);
  });

  it('parses ISO 8601 timestamps without depending on the local time zone', () => {
    expect(parseTimestamp('2026-11-22')).toBe(Date.UTC(2026, 10, 22));
    expect(parseTimestamp('2026-11-22T10:00')).toBe(Date.UTC(2026, 10, 22, 10));
    expect(parseTimestamp('2026-11-22 10:00:00.123456-0130')).toBe(Date.UTC(2026, 10, 22, 11, 30, 0, 123));
    for (const bad of ['2026-02-30', '2026-11-22T25:00', '22/11/2026', '2026-11-22T10:00:00+99', '']) expect(parseTimestamp(bad)).toBeUndefined();
  });

  it('converts query-string filters by column type', () => {
    const [customer, amount, paid, , meta] = table.columns;
    expect(convertFilter(amount, '12.5')).toEqual({ value: 12.5 });
    expect(convertFilter(amount, 'abc')).toEqual({ problem: 'must be a number' });
    expect(convertFilter(paid, 'true')).toEqual({ value: true });
    expect(convertFilter(customer, "x' or 1=1 --")).toEqual({ value: "x' or 1=1 --" });
    expect(convertFilter(meta, '{"a":1}')).toEqual({ value: '{"a":1}' });
    expect(convertFilter(meta, '{')).toEqual({ problem: 'must be JSON' });
  });
});
