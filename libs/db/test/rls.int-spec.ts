import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import type { DataSource, MigrationInterface, QueryRunner } from 'typeorm';
import {
  SystemDb,
  TenantDb,
  applyTenantRls,
  createDataSource,
  enterTenantFunctionStatements,
  execute,
  prepared,
  databaseSettings,
  dropDatabase,
  findTenantTablesWithoutRls,
  setupDatabase,
  withDatabase,
  type DatabaseSettings,
} from '../src/index.js';

const SCHEMA = 'rls_test';

class CreateRlsTables1700000000000 implements MigrationInterface {
  name = 'CreateRlsTables1700000000000';
  async up(runner: QueryRunner): Promise<void> {
    for (const table of ['notes', 'owned_notes', 'shared_notes']) {
      await runner.query(`create table ${SCHEMA}.${table} (
        tenant_id uuid not null, environment_id uuid not null, scope_id uuid,
        id uuid not null default gen_random_uuid(), body text not null,
        primary key (tenant_id, id))`);
    }
    await applyTenantRls(runner, `${SCHEMA}.notes`);
    await applyTenantRls(runner, `${SCHEMA}.owned_notes`, { scope: 'owned' });
    await applyTenantRls(runner, `${SCHEMA}.shared_notes`, { scope: 'shared' });
    await runner.query(`create table ${SCHEMA}.unprotected (tenant_id uuid not null, id int primary key)`);
    for (const statement of enterTenantFunctionStatements(SCHEMA)) await runner.query(statement);
    await runner.query(`create function ${SCHEMA}.note_bodies(p_tenant uuid, p_env uuid, p_scope uuid, p_async boolean, p_like text)
      returns table (body text, tenant text, commit_mode text) language plpgsql security invoker as $$
      begin
        perform ${SCHEMA}.enter_tenant(p_tenant, p_env, p_scope, p_async);
        return query select n.body, current_setting('app.tenant_id'), current_setting('synchronous_commit') from ${SCHEMA}.notes n where n.body like p_like;
      end $$`);
  }
  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`drop table ${SCHEMA}.notes, ${SCHEMA}.owned_notes, ${SCHEMA}.shared_notes, ${SCHEMA}.unprotected`);
  }
}

const tenantA = { tenantId: randomUUID(), environmentId: randomUUID(), scopeId: null };
const tenantB = { tenantId: randomUUID(), environmentId: randomUUID(), scopeId: null };

describe('row-level security on real PostgreSQL', () => {
  let settings: DatabaseSettings;
  let app: DataSource;
  let db: TenantDb;

  const asApp = async (sql: string) => {
    const client = new pg.Client(settings.app);
    await client.connect();
    try {
      return await client.query(sql);
    } finally {
      await client.end();
    }
  };

  beforeAll(async () => {
    settings = withDatabase(databaseSettings(process.env), `platform_rls_${randomBytes(4).toString('hex')}`);
    await setupDatabase({ settings, services: [{ service: 'rls', schema: SCHEMA, migrations: [CreateRlsTables1700000000000] }] });
    app = createDataSource({ connection: settings.app, schema: SCHEMA, applicationName: 'rls-test', poolSize: 2 });
    await app.initialize();
    db = new TenantDb(app);
    for (const [ctx, label] of [
      [tenantA, 'a'],
      [tenantB, 'b'],
    ] as const) {
      await db.run(ctx, (m) =>
        m.query(`insert into ${SCHEMA}.notes (tenant_id, environment_id, body) values ($1, $2, $3), ($1, $2, $3)`, [ctx.tenantId, ctx.environmentId, label]),
      );
    }
  });

  afterAll(async () => {
    await app?.destroy();
    if (settings) await dropDatabase(settings);
  });

  it('shows a tenant only its own rows', async () => {
    const rows = await db.run(tenantA, (m) => m.query<{ body: string }[]>(`select body from ${SCHEMA}.notes`));
    expect(rows).toEqual([{ body: 'a' }, { body: 'a' }]);
  });

  it("lets a tenant neither change nor delete another tenant's rows", async () => {
    const updated = await db.run(tenantA, (m) => m.query<[unknown, number]>(`update ${SCHEMA}.notes set body = 'x' where body = 'b'`));
    const deleted = await db.run(tenantA, (m) => m.query<[unknown, number]>(`delete from ${SCHEMA}.notes where body = 'b'`));
    expect(updated[1]).toBe(0);
    expect(deleted[1]).toBe(0);
    const still = await db.run(tenantB, (m) => m.query<{ body: string }[]>(`select body from ${SCHEMA}.notes`));
    expect(still).toEqual([{ body: 'b' }, { body: 'b' }]);
  });

  it('refuses to write a row for another tenant', async () => {
    await expect(
      db.run(tenantA, (m) =>
        m.query(`insert into ${SCHEMA}.notes (tenant_id, environment_id, body) values ($1, $2, 'forged')`, [tenantB.tenantId, tenantB.environmentId]),
      ),
    ).rejects.toThrow(/row-level security/);
  });

  it('separates environments of the same tenant', async () => {
    const sandbox = { ...tenantA, environmentId: randomUUID() };
    expect(await db.run(sandbox, (m) => m.query(`select * from ${SCHEMA}.notes`))).toEqual([]);
  });

  it('shows nothing when no tenant is set, on a fresh or a reused connection', async () => {
    expect((await asApp(`select * from ${SCHEMA}.notes`)).rows).toEqual([]);
    // A pooled connection that served a tenant transaction reads the setting as '', not NULL.
    await db.run(tenantA, (m) => m.query('select 1'));
    expect(await app.query(`select * from ${SCHEMA}.notes`)).toEqual([]);
  });

  describe('tenant functions called in one round trip (TenantDb.call)', () => {
    const NOTE_BODIES = prepared('rls_test.note_bodies', `select body, tenant, commit_mode from ${SCHEMA}.note_bodies($1, $2, $3, $4, $5)`);

    it('sets the context, commit mode included, for the call only', async () => {
      const rows = await db.call<{ body: string; tenant: string; commit_mode: string }>(tenantA, NOTE_BODIES, ['%'], { asyncCommit: true });
      expect(rows).toEqual([
        { body: 'a', tenant: tenantA.tenantId, commit_mode: 'off' },
        { body: 'a', tenant: tenantA.tenantId, commit_mode: 'off' },
      ]);
      expect((await db.call<{ body: string; commit_mode: string }>(tenantB, NOTE_BODIES, ['b'])).map((r) => [r.body, r.commit_mode])).toEqual([
        ['b', 'on'],
        ['b', 'on'],
      ]);
      // The pooled connections that served the calls keep neither tenant nor commit mode.
      for (let i = 0; i < 2; i++) {
        const [setting] = await app.query<{ value: string; mode?: string }[]>(
          `select current_setting('app.tenant_id', true) as value, current_setting('synchronous_commit') as mode`,
        );
        expect(setting).toEqual({ value: '', mode: 'on' });
        expect(await app.query(`select * from ${SCHEMA}.notes`)).toEqual([]);
      }
    });

    it('refuses a context that is not made of UUIDs before reaching the database', async () => {
      await expect(db.call({ tenantId: "x'; drop table notes; --", environmentId: tenantA.environmentId }, NOTE_BODIES, ['%'])).rejects.toThrow(/not a UUID/);
    });

    it('runs a prepared statement inside a TenantDb transaction, under its context', async () => {
      const statement = prepared('rls_test.count_notes', `select count(*)::int as n from ${SCHEMA}.notes where body = $1`);
      const counts = await db.run(tenantA, async (m) => [
        (await execute<{ n: number }>(m, statement, ['a'])).rows[0].n,
        (await execute<{ n: number }>(m, statement, ['b'])).rows[0].n,
      ]);
      expect(counts).toEqual([2, 0]);
    });
  });

  it('does not leak the context past the transaction', async () => {
    await db.run(tenantA, (m) => m.query('select 1'));
    const [setting] = await app.query<{ value: string; mode?: string }[]>(`select current_setting('app.tenant_id', true) as value`);
    expect(setting.value ?? '').toBe('');
  });

  it('confines a customer scope to its rows; shared tables also show tenant-wide rows', async () => {
    const scope = randomUUID();
    const other = randomUUID();
    for (const table of ['owned_notes', 'shared_notes']) {
      await db.run(tenantA, (m) =>
        m.query(
          `insert into ${SCHEMA}.${table} (tenant_id, environment_id, scope_id, body) values ($1, $2, null, 'tenant'), ($1, $2, $3, 'mine'), ($1, $2, $4, 'theirs')`,
          [tenantA.tenantId, tenantA.environmentId, scope, other],
        ),
      );
    }
    const scoped = { ...tenantA, scopeId: scope };
    const owned = await db.run(scoped, (m) => m.query<{ body: string }[]>(`select body from ${SCHEMA}.owned_notes order by body`));
    const shared = await db.run(scoped, (m) => m.query<{ body: string }[]>(`select body from ${SCHEMA}.shared_notes order by body`));
    const whole = await db.run(tenantA, (m) => m.query<{ body: string }[]>(`select body from ${SCHEMA}.owned_notes order by body`));
    expect(owned).toEqual([{ body: 'mine' }]);
    expect(shared).toEqual([{ body: 'mine' }, { body: 'tenant' }]);
    expect(whole).toHaveLength(3);
    await expect(
      db.run(scoped, (m) =>
        m.query(`insert into ${SCHEMA}.shared_notes (tenant_id, environment_id, scope_id, body) values ($1, $2, null, 'escalate')`, [
          tenantA.tenantId,
          tenantA.environmentId,
        ]),
      ),
    ).rejects.toThrow(/row-level security/);
    // Readable is not writable: the customer can neither change nor delete the tenant-wide row.
    const [, changed] = await db.run(scoped, (m) => m.query<[unknown, number]>(`update ${SCHEMA}.shared_notes set body = 'defaced' where scope_id is null`));
    const [, deleted] = await db.run(scoped, (m) => m.query<[unknown, number]>(`delete from ${SCHEMA}.shared_notes where scope_id is null`));
    expect([changed, deleted]).toEqual([0, 0]);
    const intact = await db.run(tenantA, (m) => m.query<{ body: string }[]>(`select body from ${SCHEMA}.shared_notes where scope_id is null`));
    expect(intact).toEqual([{ body: 'tenant' }]);
  });

  it('gives the application role no way around the policies', async () => {
    await expect(asApp(`alter table ${SCHEMA}.notes disable row level security`)).rejects.toThrow(/must be owner/);
    await expect(asApp(`alter table ${SCHEMA}.notes no force row level security`)).rejects.toThrow(/must be owner/);
    await expect(asApp(`drop policy tenant_isolation on ${SCHEMA}.notes`)).rejects.toThrow(/must be owner/);
    await expect(asApp(`set role ${settings.owner.user}`)).rejects.toThrow(/permission denied/);
    await expect(asApp(`set role ${settings.system.user}`)).rejects.toThrow(/permission denied/);
    await expect(asApp(`set session authorization ${settings.admin.user}`)).rejects.toThrow(/permission denied/);
    const role = await asApp(`select rolsuper, rolbypassrls from pg_roles where rolname = current_user`);
    expect(role.rows).toEqual([{ rolsuper: false, rolbypassrls: false }]);
    // Turning row security off does not reveal rows: for a role subject to policies it is an error.
    await expect(asApp(`set row_security = off; select * from ${SCHEMA}.notes`)).rejects.toThrow(/row-level security/);
  });

  it('leaves cross-tenant work to the system role, named and logged', async () => {
    const reasons: string[] = [];
    const system = new SystemDb(
      () => createDataSource({ connection: settings.system, schema: SCHEMA, applicationName: 'rls-system', poolSize: 1 }),
      (_message, fields) => reasons.push(String(fields.reason)),
    );
    const [count] = await system.run("count every tenant's notes", (m) => m.query<{ n: number }[]>(`select count(*)::int as n from ${SCHEMA}.notes`));
    await system.close();
    expect(count.n).toBe(4);
    expect(reasons).toEqual(["count every tenant's notes"]);
  });

  it('finds tenant tables that lack RLS', async () => {
    const missing = await findTenantTablesWithoutRls(app, [SCHEMA]);
    expect(missing.map((r) => r.table)).toEqual(['unprotected']);
  });
});
