import { describe, expect, it } from '@jest/globals';
import { AppError } from '@platform/common';
import type { DataTableRow } from '../data-table.record.js';
import { parseUserQuery, rewrite } from './query-rewriter.js';

const orders: DataTableRow = {
  id: '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e',
  name: 'orders',
  columns: [
    { name: 'customer', type: 'text', nullable: false, unique: false, physical: 'c1' },
    { name: 'amount', type: 'number', nullable: true, unique: false, physical: 'c2' },
  ],
  indexes: [],
  created_at: new Date(),
  updated_at: new Date(),
};
const PHYSICAL = 'storage_data.t_0194f1c27a3b7c419d2e3f5a6b7c8d9e';

async function refusal(query: string): Promise<string> {
  try {
    await parseUserQuery(query);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    const e = error as AppError;
    expect(e.getStatus()).toBe(400);
    expect(e.details?.[0]?.field).toBe('query');
    return e.message;
  }
  throw new Error(`accepted: ${query}`);
}

async function rewritten(query: string, tables: DataTableRow[] = [orders]): Promise<string> {
  const parsed = await parseUserQuery(query);
  return rewrite(query, parsed, { tables: new Map(tables.map((t) => [t.name, t])), views: new Set() });
}

describe('data query checks', () => {
  it('accepts joins, aggregates, CTEs, window functions, params and SQL-syntax functions', async () => {
    const queries = [
      'select customer, count(*), sum(amount) from orders where amount > $1 group by customer having count(*) > 1 order by 2 desc limit 10',
      'select o.customer, row_number() over (partition by o.customer order by o.amount desc) as rn from orders o',
      'with big as (select * from orders where amount > 100) select customer, avg(amount) from big group by customer',
      'with recursive n(i) as (select 1 union all select i + 1 from n where i < 5) select * from n',
      "select extract(year from created_at), substring(customer from 2), trim(both ' ' from customer), customer like 'a%' escape '!', customer similar to 'x%' from orders",
      'select a.customer from orders a join orders b on a.id = b.id where a.amount between 1 and 2 and a.customer in (select customer from orders) and exists (select 1)',
      "select coalesce(amount, 0)::int, nullif(customer, ''), greatest(1, 2), case when amount > 1 then 'big' else 'small' end, current_date, now() from orders",
      "select jsonb_build_object('c', customer), count(*) filter (where amount > 1), percentile_cont(0.5) within group (order by amount) from orders group by customer",
      'select * from generate_series(1, 3) as g(i)',
      'select 1',
    ];
    for (const query of queries) await expect(rewritten(query)).resolves.toEqual(expect.any(String));
  });

  it('rewrites a data table to a subquery over its physical table with the user column names', async () => {
    const sql = await rewritten('select customer, amount from orders o where o.amount > 2');
    expect(sql).toContain(PHYSICAL);
    expect(sql).toMatch(/"?c2"? AS "?amount"?/i);
    expect(sql).toMatch(/\) AS o\b/i);
    expect(sql).not.toMatch(/tenant_id/);
  });

  it('leaves a CTE that shadows a table name alone, and rewrites the table outside its scope', async () => {
    const inScope = await rewritten('with orders as (select 1 as x) select * from orders');
    expect(inScope).not.toContain(PHYSICAL);
    // A non-recursive WITH item does not see itself or later items: this `orders` is the table.
    const outOfScope = await rewritten('with a as (select * from orders), orders as (select 1 as x) select * from a, orders');
    expect(outOfScope).toContain(PHYSICAL);
  });

  it.each([
    ['select 1; select 2', /only one statement is allowed at position 11/],
    ['select 1 /* */; delete from orders', /only one statement is allowed/],
    ['select pg_sleep(10)', /function pg_sleep\(\) is not allowed at position 8/],
    ["select pg_read_file('/etc/passwd')", /function pg_read_file\(\) is not allowed/],
    ["select current_setting('app.tenant_id')", /function current_setting\(\) is not allowed/],
    ["select set_config('app.tenant_id', 'x', true)", /function set_config\(\) is not allowed/],
    ['select txid_current()', /function txid_current\(\) is not allowed/],
    ['select pg_advisory_lock(1)', /function pg_advisory_lock\(\) is not allowed/],
    ["select * from dblink('x', 'select 1') as t(a int)", /function dblink\(\) is not allowed|column definition list is not allowed/],
    ["select lo_import('/etc/passwd')", /function lo_import\(\) is not allowed/],
    ["select query_to_xml('select 1', true, true, '')", /function query_to_xml\(\) is not allowed/],
    ['select pg_catalog.lower(customer) from orders', /schema-qualified names are not allowed/],
    ['select * from pg_catalog.pg_user', /schema-qualified names are not allowed/],
    ['select * from information_schema.tables', /schema-qualified names are not allowed/],
    ["copy orders to '/tmp/x'", /only a single SELECT statement is allowed \(got COPY\)/],
    ['set role postgres', /only a single SELECT statement is allowed \(got SET\)/],
    ['delete from orders', /only a single SELECT statement is allowed \(got DELETE\)/],
    ['select * into copy from orders', /SELECT … INTO is not allowed/],
    ['select * from orders for update', /FOR UPDATE\/SHARE is not allowed/],
    ['with d as (delete from orders returning *) select * from d', /data-modifying statements in WITH are not allowed/],
    ["select 'orders'::regclass", /type regclass is not allowed/],
    ['select current_user', /CURRENT_USER is not allowed/],
    ['select * from orders tablesample system (10)', /TABLESAMPLE is not allowed/],
    ["select xmlparse(document '<a/>')", /XML functions is not allowed/],
    ['select 1 operator(pg_catalog.+) 1', /schema-qualified operators are not allowed/],
    ['selec 1', /syntax error at or near "selec" at position 1/],
    ['', /the query is empty/],
    ['-- just a comment', /the query is empty/],
  ])('refuses %s', async (query, expected) => {
    expect(await refusal(query)).toMatch(expected);
  });

  it('reports positions in characters, not bytes', async () => {
    expect(await refusal("select 'ééé', pg_sleep(1)")).toMatch(/at position 15$/);
  });

  it('refuses names it does not know, including look-alikes and U& escapes of catalogs', async () => {
    const unknown = async (query: string) => {
      const parsed = await parseUserQuery(query);
      await expect(rewrite(query, parsed, { tables: new Map([['orders', orders]]), views: new Set() })).rejects.toThrow(/unknown table/);
    };
    await unknown('select * from pg_class');
    await unknown('select * from "оrders"'); // Cyrillic о
    await unknown('select * from U&"\\0070g_class"');
    await unknown('select * from "Orders"');
    await unknown('select * from t_0194f1c27a3b7c419d2e3f5a6b7c8d9e');
  });
});
