import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { SERVICE_NAMES, SERVICES } from '@platform/common';
import { findTenantTablesWithoutRls } from '@platform/db';
import { createTestDatabase, type TestDatabase } from '../src/index.js';

describe('every service migration', () => {
  let database: TestDatabase;
  let client: pg.Client;

  beforeAll(async () => {
    database = await createTestDatabase('migrations');
    client = new pg.Client(database.settings.admin);
    await client.connect();
  });

  afterAll(async () => {
    await client?.end();
    await database?.drop();
  });

  it('gives each service its schema, owned by the owner role, with its migrations recorded', async () => {
    const { rows } = await client.query<{ schema: string; owner: string }>(
      `select nspname as schema, pg_get_userbyid(nspowner) as owner from pg_namespace where nspname = any($1)`,
      [SERVICE_NAMES.map((n) => SERVICES[n].schema)],
    );
    expect(rows).toHaveLength(SERVICE_NAMES.length);
    for (const row of rows) {
      expect(row.owner).toBe(database.settings.owner.user);
      const applied = await client.query<{ n: number }>(`select count(*)::int as n from ${row.schema}.migrations`);
      expect(applied.rows[0].n).toBeGreaterThan(0);
    }
  });

  it('leaves no tenant table without RLS enabled, forced and a policy', async () => {
    const missing = await findTenantTablesWithoutRls(
      client,
      SERVICE_NAMES.map((n) => SERVICES[n].schema),
    );
    expect(missing).toEqual([]);
  });

  it('finds every service in the migrations registry', async () => {
    const { serviceMigrations } = await import('@platform/launcher');
    const registered = await serviceMigrations();
    expect(registered.map((s) => s.service)).toEqual([...SERVICE_NAMES]);
    for (const entry of registered) expect(entry.migrations.length).toBeGreaterThan(0);
  });

  it('is idempotent: running setup again applies nothing and fails nothing', async () => {
    const { setupDatabase } = await import('@platform/db');
    const { serviceMigrations } = await import('@platform/launcher');
    const lines: string[] = [];
    await setupDatabase({ settings: database.settings, services: await serviceMigrations(), log: (l) => lines.push(l) });
    expect(lines.filter((l) => l.includes('applied'))).toEqual([]);
  });
});
