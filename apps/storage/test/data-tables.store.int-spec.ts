import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { TenantContext } from '@platform/db';
import { storeHarness, type StoreHarness } from '@platform/testing';
import { physicalTable, type ColumnDefinition } from '../src/data/data-table.record.js';
import { dataTablesRepository } from '../src/data/data-tables.repository.js';

/**
 * The three SECURITY DEFINER functions behind data tables (CreateDataTables migration), called as
 * the repository calls them, as the application role: create_data_table builds a physical table
 * from the caller's catalogue row, drop_data_table drops it, analyze_data_table refreshes its
 * statistics after a large change. data-isolation.int-spec.ts covers what another tenant can reach
 * in a table; this file covers each function's transitions.
 */
let h: StoreHarness;

beforeAll(async () => {
  h = await storeHarness(['storage'], 'storage_store');
}, 60_000);

afterAll(async () => {
  await h?.close();
});

const COLUMNS: ColumnDefinition[] = [
  { name: 'label', type: 'text', nullable: false, unique: false, physical: 'c1' },
  { name: 'amount', type: 'number', nullable: true, unique: false, physical: 'c2' },
  { name: 'paid', type: 'boolean', nullable: true, unique: false, physical: 'c3' },
  { name: 'due', type: 'timestamp', nullable: true, unique: false, physical: 'c4' },
  { name: 'extra', type: 'json', nullable: true, unique: false, physical: 'c5' },
  { name: 'email', type: 'text', nullable: true, unique: true, physical: 'c6' },
];

async function catalogue(ctx: TenantContext, columns: unknown[] = COLUMNS, indexes: string[][] = [['label', 'created_at']]): Promise<string> {
  const id = randomUUID();
  await h.tenantDb.run(ctx, (m) =>
    dataTablesRepository.insert(m, {
      tenantId: ctx.tenantId,
      environmentId: ctx.environmentId,
      id,
      name: `t_${id.slice(0, 8)}`,
      columns: columns as ColumnDefinition[],
      indexes,
      createdBy: 'test',
    }),
  );
  return id;
}

const create = (ctx: TenantContext, id: string) => h.tenantDb.run(ctx, (m) => dataTablesRepository.createPhysical(m, id));
const drop = (ctx: TenantContext, id: string) => h.tenantDb.run(ctx, (m) => dataTablesRepository.dropPhysical(m, id));
const analyze = (ctx: TenantContext, id: string, changed: number) => h.tenantDb.run(ctx, (m) => dataTablesRepository.analyze(m, id, changed));

async function exists(id: string): Promise<boolean> {
  const { rows } = await h.admin.query<{ t: string | null }>(`select to_regclass($1) as t`, [`storage_data.${physicalTable(id)}`]);
  return rows[0].t !== null;
}

async function shape(id: string) {
  const table = physicalTable(id);
  const columns = await h.admin.query<{ column_name: string; data_type: string; is_nullable: string; collation_name: string | null }>(
    `select column_name, data_type, is_nullable, collation_name from information_schema.columns where table_schema = 'storage_data' and table_name = $1 order by ordinal_position`,
    [table],
  );
  const constraints = await h.admin.query<{ conname: string; contype: string }>(
    `select conname, contype from pg_constraint where conrelid = $1::regclass order by conname`,
    [`storage_data.${table}`],
  );
  const indexes = await h.admin.query<{ indexdef: string }>(
    `select indexdef from pg_indexes where schemaname = 'storage_data' and tablename = $1 and indexname = $2`,
    [table, `${table}_i1`],
  );
  const rls = await h.admin.query<{ relrowsecurity: boolean; relforcerowsecurity: boolean; policies: number; owner: string }>(
    `select c.relrowsecurity, c.relforcerowsecurity, (select count(*)::int from pg_policy p where p.polrelid = c.oid) as policies, pg_get_userbyid(c.relowner) as owner
       from pg_class c where c.oid = $1::regclass`,
    [`storage_data.${table}`],
  );
  return { columns: columns.rows, constraints: constraints.rows, index: indexes.rows.map((r) => r.indexdef), rls: rls.rows[0] };
}

describe('storage.create_data_table: a catalogue row × create → the physical table, or an error and nothing built', () => {
  it('a catalogue row of the caller → a table with typed columns, pinned to the tenant, its unique column and index, RLS forced', async () => {
    const ctx = h.tenant();
    const id = await catalogue(ctx);
    await create(ctx, id);
    const table = physicalTable(id);
    const built = await shape(id);
    expect(built.columns).toEqual([
      { column_name: 'tenant_id', data_type: 'uuid', is_nullable: 'NO', collation_name: null },
      { column_name: 'environment_id', data_type: 'uuid', is_nullable: 'NO', collation_name: null },
      { column_name: 'scope_id', data_type: 'uuid', is_nullable: 'YES', collation_name: null },
      { column_name: 'id', data_type: 'uuid', is_nullable: 'NO', collation_name: null },
      { column_name: 'created_at', data_type: 'timestamp with time zone', is_nullable: 'NO', collation_name: null },
      { column_name: 'updated_at', data_type: 'timestamp with time zone', is_nullable: 'NO', collation_name: null },
      { column_name: 'c1', data_type: 'text', is_nullable: 'NO', collation_name: 'C' },
      { column_name: 'c2', data_type: 'double precision', is_nullable: 'YES', collation_name: null },
      { column_name: 'c3', data_type: 'boolean', is_nullable: 'YES', collation_name: null },
      { column_name: 'c4', data_type: 'timestamp with time zone', is_nullable: 'YES', collation_name: null },
      { column_name: 'c5', data_type: 'jsonb', is_nullable: 'YES', collation_name: null },
      { column_name: 'c6', data_type: 'text', is_nullable: 'YES', collation_name: 'C' },
    ]);
    expect(built.constraints.filter((c) => c.contype !== 'c').map((c) => c.conname)).toEqual([`${table}_pkey`, `${table}_u_c6`]);
    expect(built.constraints.filter((c) => c.contype === 'c')).toHaveLength(2);
    expect(built.index).toEqual([expect.stringContaining(`(tenant_id, environment_id, c1, created_at)`)]);
    expect(built.rls).toEqual({ relrowsecurity: true, relforcerowsecurity: true, policies: 1, owner: h.database.settings.owner.user });
    // The pinning checks: a row of another tenant cannot enter, whoever writes it.
    await expect(
      h.admin.query(`insert into storage_data.${table} (tenant_id, environment_id, id, c1) values ($1, $2, $3, 'x')`, [
        randomUUID(),
        ctx.environmentId,
        randomUUID(),
      ]),
    ).rejects.toThrow(/check constraint/);
  });

  it.each([
    { row: 'already has its table (created twice)', arrange: async (ctx: TenantContext) => created(ctx), error: /already exists/, left: true },
    {
      row: 'names a physical column that is not c<n>',
      arrange: (ctx: TenantContext) => catalogue(ctx, [{ ...COLUMNS[0], physical: 'c1; drop' }]),
      error: /invalid physical column name/,
    },
    { row: 'has an unknown column type', arrange: (ctx: TenantContext) => catalogue(ctx, [{ ...COLUMNS[0], type: 'money' }]), error: /invalid column type/ },
    { row: 'indexes an unknown column', arrange: (ctx: TenantContext) => catalogue(ctx, COLUMNS, [['nope']]), error: /index names an unknown column/ },
  ])('a catalogue row that $row → refused', async ({ arrange, error, left }) => {
    const ctx = h.tenant();
    const id = await arrange(ctx);
    await expect(create(ctx, id)).rejects.toThrow(error);
    expect(await exists(id)).toBe(left === true);
  });

  it.each([
    { caller: 'another tenant', make: () => h.tenant() },
    { caller: 'another environment of the tenant', make: (ctx: TenantContext) => ({ ...ctx, environmentId: randomUUID() }) },
    { caller: 'the tenant, for an id it has no row for', make: (ctx: TenantContext) => ctx, unknown: true },
  ])('$caller → no data table, nothing built', async ({ make, unknown }) => {
    const ctx = h.tenant();
    const id = unknown ? randomUUID() : await catalogue(ctx);
    await expect(create(make(ctx), id)).rejects.toThrow(/no data table/);
    expect(await exists(id)).toBe(false);
  });
});

async function created(ctx: TenantContext): Promise<string> {
  const id = await catalogue(ctx);
  await create(ctx, id);
  return id;
}

describe('storage.drop_data_table: a table’s state × drop → gone, or refused', () => {
  it.each([
    { from: 'built', arrange: (ctx: TenantContext) => created(ctx) },
    {
      from: 'dropped already (catalogue row left)',
      arrange: async (ctx: TenantContext) => {
        const id = await created(ctx);
        await drop(ctx, id);
        return id;
      },
    },
  ])('$from → no table, the catalogue row untouched (the service deletes it)', async ({ arrange }) => {
    const ctx = h.tenant();
    const id = await arrange(ctx);
    await drop(ctx, id);
    expect(await exists(id)).toBe(false);
    expect((await h.admin.query(`select count(*)::int as n from storage.data_tables where id = $1`, [id])).rows).toEqual([{ n: 1 }]);
  });

  it.each([
    { caller: 'another tenant', make: () => h.tenant() },
    { caller: 'another environment of the tenant', make: (ctx: TenantContext) => ({ ...ctx, environmentId: randomUUID() }) },
  ])('$caller → no data table, the table and its rows still there', async ({ make }) => {
    const ctx = h.tenant();
    const id = await created(ctx);
    await h.admin.query(`insert into storage_data.${physicalTable(id)} (tenant_id, environment_id, id, c1) values ($1, $2, $3, 'kept')`, [
      ctx.tenantId,
      ctx.environmentId,
      randomUUID(),
    ]);
    await expect(drop(make(ctx), id)).rejects.toThrow(/no data table/);
    expect((await h.admin.query(`select c1 from storage_data.${physicalTable(id)}`)).rows).toEqual([{ c1: 'kept' }]);
  });

  it('the catalogue row deleted first → no data table (the function finds its table only through the row)', async () => {
    const ctx = h.tenant();
    const id = await created(ctx);
    await h.tenantDb.run(ctx, (m) => dataTablesRepository.delete(m, id));
    await expect(drop(ctx, id)).rejects.toThrow(/no data table/);
    expect(await exists(id)).toBe(true);
  });
});

describe('storage.analyze_data_table: the statistics a table has × rows changed → whether ANALYZE ran', () => {
  async function fill(ctx: TenantContext, id: string, rows: number): Promise<void> {
    await h.admin.query(
      `insert into storage_data.${physicalTable(id)} (tenant_id, environment_id, id, c1) select $1, $2, gen_random_uuid(), 'r' || g from generate_series(1, $3) g`,
      [ctx.tenantId, ctx.environmentId, rows],
    );
  }
  const tuples = async (id: string) =>
    (await h.admin.query<{ reltuples: number }>(`select reltuples from pg_class where oid = $1::regclass`, [`storage_data.${physicalTable(id)}`])).rows[0]
      .reltuples;

  it.each([
    { state: 'never analyzed, 100 rows', rows: 100, analyzed: false, changed: 100, ran: true, after: 100 },
    { state: 'analyzed at 100 rows', rows: 100, analyzed: true, changed: 9, ran: false, after: 100 },
    { state: 'analyzed at 100 rows', rows: 100, analyzed: true, changed: 10, ran: true, after: 100 },
    { state: 'analyzed empty', rows: 0, analyzed: true, changed: 0, ran: true, after: 0 },
  ])('$state, $changed changed → ran: $ran', async ({ rows, analyzed, changed, ran, after }) => {
    const ctx = h.tenant();
    const id = await created(ctx);
    await fill(ctx, id, rows);
    if (analyzed) await h.admin.query(`analyze storage_data.${physicalTable(id)}`);
    else expect(await tuples(id)).toBe(-1);
    if (analyzed && rows) await fill(ctx, id, changed);
    expect(await analyze(ctx, id, changed)).toBe(ran);
    expect(await tuples(id)).toBe(ran ? after + (analyzed ? changed : 0) : after);
  });

  it('a catalogue row whose table is gone → false, nothing run', async () => {
    const ctx = h.tenant();
    const id = await created(ctx);
    await drop(ctx, id);
    expect(await analyze(ctx, id, 1_000)).toBe(false);
  });

  it('another tenant → no data table, its statistics untouched', async () => {
    const ctx = h.tenant();
    const id = await created(ctx);
    await fill(ctx, id, 50);
    await expect(analyze(h.tenant(), id, 1_000)).rejects.toThrow(/no data table/);
    expect(await tuples(id)).toBe(-1);
  });
});
