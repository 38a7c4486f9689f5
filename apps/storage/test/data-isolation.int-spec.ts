import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import type { DataSource } from 'typeorm';
import type { Principal } from '@platform/auth';
import { AppError } from '@platform/common';
import { TenantDb, createDataSource, findTenantTablesWithoutRls } from '@platform/db';
import { createTestDatabase, type TestDatabase } from '@platform/testing';
import { DataConfig } from '../src/data/data.config.js';
import { physicalTable } from '../src/data/data-table.record.js';
import { DataRowsService } from '../src/data/data-rows.service.js';
import { DataTablesService } from '../src/data/data-tables.service.js';
import { DataQueryService } from '../src/data/query/data-query.service.js';
import { restrictTransaction } from '../src/data/query/query-executor.js';

const principal = (tenantId: string = randomUUID(), environmentId: string = randomUUID(), scopeId: string | null = null): Principal => ({
  tenantId,
  environmentId,
  scopeId,
  kind: scopeId ? 'customer_key' : 'tenant_key',
  scopes: ['*'],
  subject: randomUUID(),
});

const config = (overrides: Partial<DataConfig> = {}) => Object.assign(new DataConfig(), overrides);

async function status(work: Promise<unknown>): Promise<{ status: number; message: string }> {
  try {
    await work;
  } catch (error) {
    if (error instanceof AppError) return { status: error.getStatus(), message: error.message };
    return { status: 500, message: (error as Error).message };
  }
  return { status: 200, message: '' };
}

/**
 * What holds in the database itself, whatever the query checker lets through: the application
 * role inside a tenant transaction cannot reach another tenant's rows, cannot see what a tenant's
 * tables are called or hold, and cannot create or drop tables except through the catalogue.
 */
describe('data tables on real PostgreSQL, as the application role', () => {
  let database: TestDatabase;
  let app: DataSource;
  let db: TenantDb;
  let admin: pg.Client;
  let tables: DataTablesService;
  let rows: DataRowsService;
  let queries: DataQueryService;
  const a = principal();
  const b = principal();
  let physicalA: string;

  beforeAll(async () => {
    database = await createTestDatabase('storage_data');
    app = createDataSource({ connection: database.settings.app, schema: 'storage', applicationName: 'storage-int', poolSize: 3 });
    await app.initialize();
    db = new TenantDb(app);
    admin = new pg.Client(database.settings.admin);
    await admin.connect();
    tables = new DataTablesService(db);
    rows = new DataRowsService(db);
    queries = new DataQueryService(db, config());
    for (const p of [a, b]) {
      await tables.create(p, {
        name: 'customer_secrets',
        columns: [
          { name: 'label', type: 'text', nullable: false },
          { name: 'amount', type: 'number' },
          { name: 'email', type: 'text', unique: true },
        ],
        indexes: [['label']],
      });
    }
    await rows.insert(a, 'customer_secrets', [
      { label: 'a-only', amount: 1, email: 'a@a.test' },
      { label: 'a-only', amount: 2 },
    ]);
    await rows.insert(b, 'customer_secrets', [{ label: 'b-only', amount: 3 }]);
    const [row] = (await admin.query(`select id from storage.data_tables where tenant_id = $1`, [a.tenantId])).rows as { id: string }[];
    physicalA = physicalTable(row.id);
    await admin.query(`analyze storage_data.${physicalA}`);
  }, 120_000);

  afterAll(async () => {
    await admin?.end();
    await app?.destroy();
    await database?.drop();
  });

  it('leaves no tenant table in storage or storage_data without RLS enabled, forced and a policy', async () => {
    expect(await findTenantTablesWithoutRls(admin, ['storage', 'storage_data'])).toEqual([]);
    const owner = await admin.query(`select tableowner from pg_tables where schemaname = 'storage_data' and tablename = $1`, [physicalA]);
    expect(owner.rows).toEqual([{ tableowner: database.settings.owner.user }]);
  });

  it('answers each tenant from its own table only', async () => {
    const answer = await queries.query(a, 'select label, sum(amount) as total from customer_secrets group by label');
    expect(answer).toEqual({
      columns: [
        { name: 'label', type: 'text' },
        { name: 'total', type: 'number' },
      ],
      rows: [{ label: 'a-only', total: 3 }],
      row_count: 1,
      truncated: false,
    });
    expect((await queries.query(b, 'select label from customer_secrets')).rows).toEqual([{ label: 'b-only' }]);
  });

  it("returns nothing and changes nothing when another tenant names A's physical table directly", async () => {
    const leaked = `storage_data.${physicalA}`;
    const seen = await db.run(b, (m) => m.query<{ n: number }[]>(`select count(*)::int as n from ${leaked}`));
    expect(seen).toEqual([{ n: 0 }]);
    const [, updated] = await db.run(b, (m) => m.query<[unknown, number]>(`update ${leaked} set c1 = 'hijacked'`));
    expect(updated).toBe(0);
    const [, deleted] = await db.run(b, (m) => m.query<[unknown, number]>(`delete from ${leaked}`));
    expect(deleted).toBe(0);
    // Writing B's own tenant id into A's table breaks its pinning check; A's id breaks RLS.
    const asB = status(
      db.run(b, (m) =>
        m.query(`insert into ${leaked} (tenant_id, environment_id, id, c1) values ($1, $2, $3, 'x')`, [b.tenantId, b.environmentId, randomUUID()]),
      ),
    );
    expect((await asB).message).toMatch(/check constraint|row-level security/);
    const asA = status(
      db.run(b, (m) =>
        m.query(`insert into ${leaked} (tenant_id, environment_id, id, c1) values ($1, $2, $3, 'x')`, [a.tenantId, a.environmentId, randomUUID()]),
      ),
    );
    expect((await asA).message).toMatch(/row-level security/);
    // With no tenant context at all the table is empty too (fail closed).
    const client = new pg.Client(database.settings.app);
    await client.connect();
    try {
      expect((await client.query(`select count(*)::int as n from ${leaked}`)).rows).toEqual([{ n: 0 }]);
    } finally {
      await client.end();
    }
    expect(await db.run(a, (m) => m.query(`select count(*)::int as n from ${leaked}`))).toEqual([{ n: 2 }]);
  });

  it("shows the catalogs only generated names: no tenant's table or column names, no statistics", async () => {
    const result = await db.run(b, async (m) => ({
      relations: await m.query<{ relname: string }[]>(
        `select c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'storage_data' and c.relkind = 'r'`,
      ),
      columns: await m.query<{ attname: string }[]>(
        `select a.attname from pg_attribute a join pg_class c on c.oid = a.attrelid where c.relname = $1 and a.attnum > 0`,
        [physicalA],
      ),
      stats: await m.query<unknown[]>(`select * from pg_stats where schemaname = 'storage_data'`),
      catalogue: await m.query<{ tenant_id: string }[]>(`select name, tenant_id from storage.data_tables`),
    }));
    expect(result.relations.every((r) => /^t_[0-9a-f]{32}$/.test(r.relname))).toBe(true);
    expect(result.columns.map((c) => c.attname)).toEqual(['tenant_id', 'environment_id', 'scope_id', 'id', 'created_at', 'updated_at', 'c1', 'c2', 'c3']);
    expect(result.stats).toEqual([]);
    expect(result.catalogue.every((r) => r.tenant_id === b.tenantId)).toBe(true);
  });

  it('lets the application role create and drop physical tables only through the catalogue of its own tenant', async () => {
    const denied = await status(db.run(b, (m) => m.query(`create table storage_data.t_evil (tenant_id uuid)`)));
    expect(denied.message).toMatch(/permission denied/);
    const [row] = (await admin.query(`select id from storage.data_tables where tenant_id = $1`, [a.tenantId])).rows as { id: string }[];
    const drop = await status(db.run(b, (m) => m.query(`select storage.drop_data_table($1)`, [row.id])));
    expect(drop.message).toMatch(/no data table/);
    const create = await status(db.run(b, (m) => m.query(`select storage.create_data_table($1)`, [row.id])));
    expect(create.message).toMatch(/no data table/);
    expect((await admin.query(`select count(*)::int as n from storage_data.${physicalA}`)).rows).toEqual([{ n: 2 }]);
  });

  it('confines a customer scope to its own rows; the tenant sees all', async () => {
    const customer = principal(a.tenantId, a.environmentId, randomUUID());
    await rows.insert(customer, 'customer_secrets', [{ label: 'customer-row', amount: 10 }]);
    expect((await queries.query(customer, 'select label from customer_secrets')).rows).toEqual([{ label: 'customer-row' }]);
    expect((await queries.query(a, 'select count(*) as n from customer_secrets')).rows).toEqual([{ n: 3 }]);
    const other = principal(a.tenantId, a.environmentId, randomUUID());
    expect((await rows.list(other, 'customer_secrets', {})).data).toEqual([]);
  });

  it('makes the query transaction read only', async () => {
    const write = await status(
      db.run(a, async (m) => {
        await restrictTransaction(m, 1000);
        await m.query(`insert into storage_data.${physicalA} (tenant_id, environment_id, id, c1) values ($1, $2, $3, 'x')`, [
          a.tenantId,
          a.environmentId,
          randomUUID(),
        ]);
      }),
    );
    expect(write.message).toMatch(/read-only transaction/);
  });

  it('turns failures while running into 400 with the database message', async () => {
    for (const [query, message] of [
      ['select 1 / 0', /division by zero/],
      ["select 'x'::int", /invalid input syntax for type integer/],
      ['select nope from customer_secrets', /column "nope" does not exist/],
    ] as const) {
      const result = await status(queries.query(a, query));
      expect(result).toEqual({ status: 400, message: expect.stringMatching(message) });
      expect(result.message).not.toMatch(/t_[0-9a-f]{32}/);
    }
    const slow = new DataQueryService(db, config({ DATA_QUERY_TIMEOUT_MS: 200 }));
    expect(await status(slow.query(a, 'select count(*) from generate_series(1, 1000000000)'))).toEqual({
      status: 400,
      message: expect.stringMatching(/statement timeout.*200 ms/),
    });
  });

  it('truncates at the row and byte limits without fetching what it drops', async () => {
    const small = new DataQueryService(db, config({ DATA_QUERY_MAX_ROWS: 5, DATA_QUERY_MAX_BYTES: 4096 }));
    const many = await small.query(a, 'select i from generate_series(1, 100) as g(i) order by i desc');
    expect(many).toMatchObject({ row_count: 5, truncated: true, rows: [{ i: 100 }, { i: 99 }, { i: 98 }, { i: 97 }, { i: 96 }] });
    const wide = await small.query(a, "select i, lpad('', 1000, 'x') as pad from generate_series(1, 100) as g(i)");
    expect(wide.truncated).toBe(true);
    expect(wide.row_count).toBeGreaterThan(0);
    expect(wide.row_count).toBeLessThan(5);
    const huge = await small.query(a, "select lpad('', 50000000, 'x') as pad");
    expect(huge).toMatchObject({ row_count: 0, truncated: true });
  });
});
