import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { call, createTenant, e2eEnvironment, withKey, type TestTenant } from '@platform/testing';

const env = e2eEnvironment();
type Body = Record<string, unknown> & {
  rows?: Record<string, unknown>[];
  columns?: { name: string; type: string }[];
  row_count?: number;
  truncated?: boolean;
  details?: { field: string; message: string }[];
};
const gw = (path: string, request?: Parameters<typeof call>[2]) => call<Body>(env.gatewayUrl, path, request);

const ROWS = 100_000;
const STATUSES = ['paid', 'open', 'refunded'];
const DAY = 86_400_000;
const START = Date.UTC(2026, 0, 1);

/** Row i of the big table, computed the same way by the test and its expectations. */
function order(i: number) {
  return { region: `r${i % 10}`, status: STATUSES[i % 3], amount: (i % 1000) / 4, paid: i % 7 !== 0, paid_at: new Date(START + (i % 365) * DAY).toISOString() };
}

const MARKER = 'B-SECRET-MARKER';

describe('POST /v1/data/query end to end', () => {
  let a: TestTenant;
  let b: TestTenant;
  let admin: pg.Client;
  const query = (q: string, params?: unknown[], key = a.test_key) =>
    gw('/v1/data/query', { headers: withKey(key), body: params ? { query: q, params } : { query: q }, timeoutMs: 60_000 });

  beforeAll(async () => {
    [a, b] = await Promise.all([createTenant(env.gatewayUrl, env.adminToken, 'query-a'), createTenant(env.gatewayUrl, env.adminToken, 'query-b')]);
    const table = {
      name: 'orders',
      columns: [
        { name: 'region', type: 'text', nullable: false },
        { name: 'status', type: 'text', nullable: false },
        { name: 'amount', type: 'number', nullable: false },
        { name: 'paid', type: 'boolean' },
        { name: 'paid_at', type: 'timestamp' },
      ],
      indexes: [['status', 'amount'], ['region']],
    };
    expect((await gw('/storage/data-tables', { headers: withKey(a.test_key), body: table })).status).toBe(201);
    expect(
      (
        await gw('/storage/data-tables', {
          headers: withKey(a.test_key),
          body: {
            name: 'regions',
            columns: [
              { name: 'code', type: 'text', unique: true },
              { name: 'label', type: 'text' },
            ],
          },
        })
      ).status,
    ).toBe(201);
    await gw('/storage/data-tables/regions/rows', {
      headers: withKey(a.test_key),
      body: { rows: Array.from({ length: 10 }, (_, i) => ({ code: `r${i}`, label: `Region ${i}` })) },
    });
    // 100,000 rows in ten bulk inserts of 10,000 (one statement each).
    for (let chunk = 0; chunk < ROWS / 10_000; chunk++) {
      const rows = Array.from({ length: 10_000 }, (_, j) => order(chunk * 10_000 + j));
      const res = await gw('/storage/data-tables/orders/rows', { headers: withKey(a.test_key), body: { rows }, timeoutMs: 120_000 });
      expect(res.status).toBe(201);
      expect(res.body.rows).toHaveLength(10_000);
    }
    // Tenant B: a table of the same name and one A does not have, holding a marker A must never see.
    for (const name of ['orders', 'b_private']) {
      expect(
        (
          await gw('/storage/data-tables', {
            headers: withKey(b.test_key),
            body: {
              name,
              columns: [
                { name: 'region', type: 'text' },
                { name: 'status', type: 'text' },
                { name: 'amount', type: 'number' },
              ],
            },
          })
        ).status,
      ).toBe(201);
      await gw(`/storage/data-tables/${name}/rows`, { headers: withKey(b.test_key), body: { region: MARKER, status: MARKER, amount: 1 } });
    }
    admin = new pg.Client({ connectionString: env.databaseUrl });
    await admin.connect();
  }, 300_000);

  afterAll(async () => {
    await admin?.end();
  });

  it('runs a filtered aggregate over 100,000 rows', async () => {
    const res = await query(
      'select status, count(*) as n, sum(amount) as total, round(avg(amount)::numeric, 3) as mean from orders where amount > $1 group by status order by status',
      [100],
    );
    expect(res.status).toBe(200);
    const expected = new Map<string, { n: number; total: number }>();
    for (let i = 0; i < ROWS; i++) {
      const o = order(i);
      if (o.amount <= 100) continue;
      const e = expected.get(o.status) ?? { n: 0, total: 0 };
      e.n++;
      e.total += o.amount;
      expected.set(o.status, e);
    }
    expect(res.body.columns).toEqual([
      { name: 'status', type: 'text' },
      { name: 'n', type: 'number' },
      { name: 'total', type: 'number' },
      { name: 'mean', type: 'number' },
    ]);
    expect(res.body.rows).toEqual(
      [...expected.entries()]
        .sort(([x], [y]) => x.localeCompare(y))
        .map(([status, e]) => ({ status, n: e.n, total: e.total, mean: Math.round((e.total / e.n) * 1000) / 1000 })),
    );
    expect(res.body).toMatchObject({ row_count: 3, truncated: false });
  });

  it('joins, groups, uses window functions and CTEs', async () => {
    const joined = await query(
      'select r.label, count(*) as n from orders o join regions r on r.code = o.region where o.paid group by r.label order by r.label limit 3',
    );
    expect(joined.status).toBe(200);
    const paidIn = (region: string) => Array.from({ length: ROWS }, (_, i) => order(i)).filter((o) => o.region === region && o.paid).length;
    expect(joined.body.rows).toEqual([
      { label: 'Region 0', n: paidIn('r0') },
      { label: 'Region 1', n: paidIn('r1') },
      { label: 'Region 2', n: paidIn('r2') },
    ]);

    const ranked = await query(`with totals as (select region, sum(amount) as total from orders group by region)
      select region, total, rank() over (order by total desc, region) as place, sum(total) over () as grand from totals order by place`);
    expect(ranked.status).toBe(200);
    expect(ranked.body.rows).toHaveLength(10);
    expect(ranked.body.rows![0]).toMatchObject({ place: 1 });
    expect(ranked.body.rows!.every((r) => r.grand === ranked.body.rows![0].grand)).toBe(true);

    const running = await query(
      `select id, amount, sum(amount) over (order by id rows between unbounded preceding and current row) as running
      from orders where region = $1 and paid_at >= $2 order by id limit 5`,
      ['r3', '2026-03-01T00:00:00Z'],
    );
    expect(running.status).toBe(200);
    expect(running.body.rows).toHaveLength(5);
    expect(running.body.rows![1].running).toBe((running.body.rows![0].amount as number) + (running.body.rows![1].amount as number));
  });

  it('binds parameters of every kind, never interpolating them', async () => {
    const res = await query('select $1::text as s, $2::float8 as n, $3::boolean as b, $4::timestamptz as t, $5::jsonb as j, cardinality($6::text[]) as c', [
      "'; drop table orders; --",
      1.5,
      true,
      '2026-11-22T10:00:00Z',
      { a: [1, 2] },
      ['r1', 'r2'],
    ]);
    expect(res.status).toBe(200);
    expect(res.body.rows).toEqual([{ s: "'; drop table orders; --", n: 1.5, b: true, t: '2026-11-22T10:00:00.000Z', j: { a: [1, 2] }, c: 2 }]);
    const any = await query('select count(*) as n from orders where region = any($1)', [['r1', 'r2']]);
    expect(any.body.rows).toEqual([{ n: 20_000 }]);
    expect((await query('select count(*) from orders')).body.rows).toEqual([{ count: ROWS }]);
    const missing = await query('select $2::int');
    expect(missing.status).toBe(400);
    expect(missing.body.message).toMatch(/\$2/);
    const surplus = await query('select $1::int as one', [1, 2]);
    expect(surplus.status).toBe(400);
    expect(surplus.body.details).toEqual([{ field: 'params', message: 'holds 2 value(s) but the query uses only $1' }]);
    const gap = await query('select $1::int as one, $3::int as three', [1, 2, 3]);
    expect(gap.status).toBe(400);
    expect(gap.body.message).toMatch(/\$2/);
  });

  it('truncates at the row limit, keeping the order asked for', async () => {
    const res = await query('select id, amount from orders order by amount desc, id');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ row_count: 10_000, truncated: true });
    const amounts = res.body.rows!.map((r) => r.amount as number);
    expect(amounts[0]).toBe(249.75);
    expect(amounts.every((x, i) => i === 0 || amounts[i - 1] >= x)).toBe(true);
    expect(res.body.columns).toEqual([
      { name: 'id', type: 'uuid' },
      { name: 'amount', type: 'number' },
    ]);
  });

  it('answers 400 with the database message for failures while running, never 500', async () => {
    for (const [q, message] of [
      ['select 1 / 0', /division by zero/],
      ["select 'abc'::int", /invalid input syntax for type integer/],
      ['select missing_column from orders', /column "missing_column" does not exist/],
      ["select amount from orders where paid_at > 'not a date'", /invalid input syntax for type timestamp/],
      ['select count(*) from orders a, orders b where a.amount * b.amount < 0', /statement timeout/],
    ] as const) {
      const res = await query(q);
      expect({ q, status: res.status }).toEqual({ q, status: 400 });
      expect(res.body).toMatchObject({
        error: 'Bad Request',
        status: 400,
        request_id: expect.any(String),
        details: [{ field: 'query', message: expect.stringMatching(message) }],
      });
    }
  }, 60_000);

  describe('refuses or defuses injection, never 500 and never another tenant\u2019s data', () => {
    let bPhysical = '';
    beforeAll(async () => {
      const row = await admin.query(`select replace(id::text, '-', '') as hex from storage.data_tables where tenant_id = $1 and name = 'b_private'`, [
        b.tenant_id,
      ]);
      bPhysical = `t_${(row.rows[0] as { hex: string }).hex}`;
    });

    const cases: [string, RegExp | 'harmless'][] = [
      ['select 1; select * from b_private', /only one statement is allowed at position 11/],
      ['select * from orders; drop table orders', /only one statement is allowed/],
      ['select pg_sleep(5)', /function pg_sleep\(\) is not allowed at position 8/],
      ["select pg_read_file('/etc/passwd')", /function pg_read_file\(\) is not allowed/],
      ["select * from pg_ls_dir('.')", /function pg_ls_dir\(\) is not allowed/],
      ['copy orders to stdout', /only a single SELECT statement is allowed \(got COPY\)/],
      ['set role postgres', /only a single SELECT statement is allowed \(got SET\)/],
      ['explain select 1', /only a single SELECT statement is allowed \(got EXPLAIN\)/],
      ["select set_config('app.tenant_id', '00000000-0000-0000-0000-000000000000', true)", /function set_config\(\) is not allowed/],
      ["select current_setting('app.tenant_id')", /function current_setting\(\) is not allowed/],
      ['select version()', /function version\(\) is not allowed/],
      ['select txid_current()', /function txid_current\(\) is not allowed/],
      ['select pg_advisory_lock(1)', /function pg_advisory_lock\(\) is not allowed/],
      ["select lo_import('/etc/passwd')", /function lo_import\(\) is not allowed/],
      ["select query_to_xml('select * from b_private', true, true, '')", /function query_to_xml\(\) is not allowed/],
      ["select * from dblink('dbname=platform', 'select 1') as t(a int)", /is not allowed/],
      ['select relname from pg_class', /unknown table 'pg_class'/],
      ['select * from pg_catalog.pg_user', /schema-qualified names are not allowed/],
      ['select * from information_schema.tables', /schema-qualified names are not allowed/],
      ['select * from storage.secrets', /schema-qualified names are not allowed/],
      ["select 'storage.secrets'::regclass", /type regclass is not allowed/],
      ['select current_user', /CURRENT_USER is not allowed/],
      ['select 1 -- ; select * from b_private', 'harmless'],
      ['select 1 /* ; */ ; select * from b_private', /only one statement is allowed/],
      ["select E'\\x27; select 1' as s", 'harmless'],
      ['select * from "оrders"', /unknown table 'оrders'/],
      ['select * from U&"\\0062_private"', /unknown table 'b_private'/],
      ['select * from "ORDERS"', /unknown table 'ORDERS'/],
      ['select * from b_private', /unknown table 'b_private' at position 15/],
      ['select (select count(*) from b_private)', /unknown table 'b_private'/],
      ['select * into stolen from orders', /SELECT … INTO is not allowed/],
      ['select * from orders for update', /FOR UPDATE\/SHARE is not allowed/],
      ['with d as (delete from orders returning *) select count(*) from d', /data-modifying statements in WITH are not allowed/],
      ["with u as (update orders set status = 'x' returning 1) select 1", /data-modifying statements in WITH are not allowed/],
      ['select * from orders tablesample bernoulli (50)', /TABLESAMPLE is not allowed/],
      [`select ${'(1 + '.repeat(3000)}1${')'.repeat(3000)}`, /./],
    ];

    it.each(cases)('%s', async (q, expected) => {
      const res = await query(q);
      expect(res.status).not.toBe(500);
      expect(res.text).not.toContain(MARKER);
      if (expected === 'harmless') {
        expect(res.status).toBe(200);
      } else {
        expect(res.status).toBe(400);
        expect(res.body.details?.[0]).toMatchObject({ field: 'query', message: expect.stringMatching(expected) });
      }
    });

    it("refuses another tenant's physical table by its generated name", async () => {
      for (const q of [`select * from storage_data.${bPhysical}`, `select * from ${bPhysical}`, `select * from "${bPhysical}"`]) {
        const res = await query(q);
        expect(res.status).toBe(400);
        expect(res.text).not.toContain(MARKER);
      }
    });

    it("answers tenant B from its own tables: same names, never A's rows", async () => {
      const res = await query('select region, count(*) as n from orders group by region', undefined, b.test_key);
      expect(res.body.rows).toEqual([{ region: MARKER, n: 1 }]);
    });

    it('names the refused views that do not exist yet', async () => {
      // `tasks` arrives with the task service; `workflows` and `executions` exist (run's migration).
      const res = await query('select * from tasks');
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/tasks/);
    });
  });

  it('validates the body', async () => {
    for (const [body, field] of [
      [{}, 'query'],
      [{ query: 5 }, 'query'],
      [{ query: 'select 1', params: 'x' }, 'params'],
      [{ query: 'select 1', extra: 1 }, 'extra'],
      [{ query: 'x'.repeat(100_001) }, 'query'],
      [{ query: 'select $1', params: [[{ a: 1 }]] }, 'params'],
    ] as const) {
      const res = await gw('/v1/data/query', { headers: withKey(a.test_key), body });
      expect({ field, status: res.status, fields: res.body.details?.map((d) => d.field) }).toEqual({
        field,
        status: 400,
        fields: expect.arrayContaining([field]),
      });
    }
  });
});
