import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import type { MigrationInterface, QueryRunner } from 'typeorm';
import { databaseSettings, dropDatabase, setupDatabase, withDatabase, type DatabaseFunction, type DatabaseSettings } from '../src/index.js';

const SCHEMA = 'fn_test';

class CreateNotes1700000000000 implements MigrationInterface {
  name = 'CreateNotes1700000000000';
  async up(q: QueryRunner): Promise<void> {
    await q.query(`create table ${SCHEMA}.notes (id int primary key, version int not null default 1)`);
    // The trigger stays in the migration; its function comes from the function files.
    await q.query(`create function ${SCHEMA}.bump() returns trigger language plpgsql as $$ begin return new; end $$`);
    await q.query(`create trigger notes_bump before update on ${SCHEMA}.notes for each row execute function ${SCHEMA}.bump()`);
  }
  async down(): Promise<void> {}
}

class CreateLater1700000001000 implements MigrationInterface {
  name = 'CreateLater1700000001000';
  async up(q: QueryRunner): Promise<void> {
    await q.query(`create table ${SCHEMA}.later (id int primary key)`);
  }
  async down(): Promise<void> {}
}

const fn = (name: string, sql: string): DatabaseFunction => ({ name, file: `notes/sql/${name}.sql`, sql });
const BUMP = fn(
  'bump',
  `create or replace function ${SCHEMA}.bump() returns trigger language plpgsql as $$ begin new.version := old.version + 1; return new; end $$`,
);

describe('SQL functions applied after the migrations', () => {
  let settings: DatabaseSettings;
  let admin: pg.Client;

  beforeAll(async () => {
    settings = withDatabase(databaseSettings(process.env), `platform_fn_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`);
    await setupDatabase({ settings, services: [] });
    admin = new pg.Client(settings.admin);
    await admin.connect();
  });

  afterAll(async () => {
    await admin?.end();
    if (settings) await dropDatabase(settings);
  });

  const setup = (functions: DatabaseFunction[], migrations: Array<new () => MigrationInterface> = [CreateNotes1700000000000]) =>
    setupDatabase({ settings, services: [{ service: 'fn-test', schema: SCHEMA, migrations, functions }] });
  const overloads = async (name: string) =>
    (
      await admin.query<{ oid: number; signature: string; result: string }>(
        `select oid::int, oid::regprocedure::text as signature, pg_get_function_result(oid) as result from pg_proc where pronamespace = $1::regnamespace and proname = $2`,
        [SCHEMA, name],
      )
    ).rows;

  it('creates each function from its file, with the schema enter_tenant, and replaces a trigger function in place', async () => {
    await setup([BUMP, fn('answer', `create or replace function ${SCHEMA}.answer(p int) returns int language sql as $$ select p + 1 $$`)]);
    expect((await admin.query<{ a: number }>(`select ${SCHEMA}.answer(41) as a`)).rows[0].a).toBe(42);
    expect(await overloads('enter_tenant')).toHaveLength(1);
    await admin.query(`insert into ${SCHEMA}.notes (id) values (1)`);
    await admin.query(`update ${SCHEMA}.notes set id = 1`);
    expect((await admin.query<{ version: number }>(`select version from ${SCHEMA}.notes`)).rows[0].version).toBe(2); // the file's body, not the migration's
  });

  it('keeps the function (same oid) when its text is applied again', async () => {
    const [before] = await overloads('answer');
    await setup([BUMP, fn('answer', `create or replace function ${SCHEMA}.answer(p int) returns int language sql as $$ select p + 1 $$`)]);
    expect(await overloads('answer')).toEqual([before]);
  });

  it('drops and creates a function whose return type changed', async () => {
    await setup([BUMP, fn('answer', `create or replace function ${SCHEMA}.answer(p int) returns text language sql as $$ select (p + 1)::text $$`)]);
    expect((await overloads('answer')).map((o) => o.result)).toEqual(['text']);
  });

  it('leaves exactly one function when its parameters changed', async () => {
    await setup([BUMP, fn('answer', `create or replace function ${SCHEMA}.answer(p int, q int) returns int language sql as $$ select p + q $$`)]);
    expect((await overloads('answer')).map((o) => o.signature)).toEqual([`${SCHEMA}.answer(integer,integer)`]);
  });

  it('fails on a file that does not define its function, and rolls back the migrations of that run with it', async () => {
    await expect(setup([BUMP, fn('missing', `select 1`)], [CreateNotes1700000000000, CreateLater1700000001000])).rejects.toThrow(
      'notes/sql/missing.sql does not define fn_test.missing',
    );
    expect((await admin.query<{ t: string | null }>(`select to_regclass('${SCHEMA}.later') as t`)).rows[0].t).toBeNull();
  });

  it('names the file whose SQL fails', async () => {
    await expect(setup([fn('broken', `create or replace function ${SCHEMA}.broken() returns int language sql as $$ select nope $$`)])).rejects.toThrow(
      /notes\/sql\/broken\.sql: column "nope" does not exist/,
    );
  });
});
