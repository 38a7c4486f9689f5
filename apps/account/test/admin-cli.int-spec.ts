import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { REPO_ROOT, createTestDatabase, type TestDatabase } from '@platform/testing';

const CLI = resolve(REPO_ROOT, 'apps/account/dist/src/cli/admin.js');

function admin(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('exit', (code) => done({ code, stdout, stderr }));
  });
}

describe('npm run admin -- create-tenant', () => {
  let database: TestDatabase;
  let env: Record<string, string>;

  beforeAll(async () => {
    database = await createTestDatabase('admin_cli');
    env = { DATABASE_URL: database.url, MASTER_KEY: randomBytes(32).toString('base64') };
  });

  afterAll(async () => {
    await database?.drop();
  });

  it('creates a tenant with both data planes and prints a live and a test key once, storing only their hashes', async () => {
    const result = await admin(['create-tenant', '--name', 'Acme', '--email', 'owner@acme.test', '--json'], env);
    expect(result.code).toBe(0);
    const tenant = JSON.parse(result.stdout) as Record<string, string>;
    expect(tenant.live_key).toMatch(/^sv_live_[0-9A-Za-z]{46}$/);
    expect(tenant.test_key).toMatch(/^sv_test_[0-9A-Za-z]{46}$/);
    const client = new pg.Client(database.settings.admin);
    await client.connect();
    try {
      const planes = await client.query(`select name, mode from account.environments where tenant_id = $1 order by name`, [tenant.tenant_id]);
      expect(planes.rows).toEqual([
        { name: 'production', mode: 'live' },
        { name: 'sandbox', mode: 'test' },
      ]);
      const keys = await client.query(`select prefix, scopes, encode(key_hash, 'hex') as hash from account.api_keys where tenant_id = $1 order by mode`, [
        tenant.tenant_id,
      ]);
      expect(keys.rows.map((r: { prefix: string }) => r.prefix)).toEqual([tenant.live_key.slice(0, 12), tenant.test_key.slice(0, 12)]);
      expect(JSON.stringify(keys.rows)).not.toContain(tenant.live_key);
      expect(JSON.stringify(keys.rows)).not.toContain(tenant.test_key.slice(12));
      // The owner's seat waits in the usage outbox, as for a tenant made over the API; the account service's relay publishes it.
      const usage = await client.query(`select metric, quantity::int, environment_id, actor from account.usage_outbox where tenant_id = $1`, [
        tenant.tenant_id,
      ]);
      expect(usage.rows).toEqual([{ metric: 'seats', quantity: 1, environment_id: tenant.production_data_plane_id, actor: 'admin-cli' }]);
    } finally {
      await client.end();
    }
  });

  it('prints a readable summary without --json', async () => {
    const result = await admin(['create-tenant', '--name', 'Readable', '--email', 'r@acme.test'], env);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/live key \(production\)\s+sv_live_/);
    expect(result.stdout).toContain('shown only now');
  });

  it('explains its usage and refuses bad arguments', async () => {
    // Side by side: each start of the CLI costs seconds of module loading, none depends on another.
    const cases = [[], ['create-tenant', '--name', 'X'], ['create-tenant', '--name', 'X', '--email', 'nope'], ['delete-everything']];
    const results = await Promise.all(cases.map((args) => admin(args, env)));
    results.forEach((result, i) => {
      expect([cases[i], result.code]).toEqual([cases[i], 1]);
      expect(result.stderr).toMatch(/Usage: npm run admin|is not an e-mail address/);
    });
  });

  it('prints help with examples for --help, on every command, instead of a stack trace', async () => {
    const results = await Promise.all([['--help'], ['create-tenant', '--help'], ['reseal-secrets', '--help']].map((args) => admin(args, env)));
    for (const result of results) {
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/^Usage: npm run admin -- /);
      expect(result.stdout).toContain('Examples:');
      expect(result.stderr).toBe('');
    }
  });

  it('says what to do when the database is not there', async () => {
    const result = await admin(['create-tenant', '--name', 'X', '--email', 'x@y.test'], {
      ...env,
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/platform_does_not_exist',
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/does not exist|db:setup/);
  });
});
