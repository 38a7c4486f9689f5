import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { isFinished } from '@platform/messaging';
import {
  call,
  createTenant,
  createTestDatabase,
  eventually,
  freePort,
  removeNatsNamespace,
  startPlatform,
  withKey,
  type RunningPlatform,
  type TestDatabase,
} from '@platform/testing';

const PGBOUNCER = '/usr/sbin/pgbouncer';

/**
 * A PgBouncer of this test's own (Debian's 1.18: no prepared statements in transaction mode) on a
 * free port, in transaction mode with a small pool, in front of the test database's server.
 * PostgreSQL trusts loopback here, so PgBouncer does too; the auth file only lists the roles.
 */
async function startPgBouncer(database: TestDatabase): Promise<{ port: number; process: ChildProcess; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'pgbouncer-'));
  const port = await freePort();
  const { admin, app, system } = database.settings;
  writeFileSync(join(dir, 'users.txt'), [admin.user, app.user, system.user].map((u) => `"${u}" ""`).join('\n') + '\n');
  writeFileSync(
    join(dir, 'pgbouncer.ini'),
    [
      '[databases]',
      `* = host=${admin.host} port=${admin.port}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${join(dir, 'users.txt')}`,
      `admin_users = ${admin.user}`,
      'pool_mode = transaction',
      // Fewer server connections than the services' pools hold clients: transactions share them.
      'default_pool_size = 4',
      // Each transaction on the server connection idle the longest, not the last one used: a
      // client's next transaction lands on another connection, where a statement it prepared
      // on the previous one does not exist. Named prepared statements fail at once here.
      'server_round_robin = 1',
      // The services ask for their schema as search_path in the startup packet; 1.18 refuses it
      // unless told to ignore it. Every statement of theirs names its schema.
      'ignore_startup_parameters = extra_float_digits,options',
      'max_client_conn = 200',
    ].join('\n') + '\n',
  );
  chmodSync(dir, 0o755);
  // PgBouncer refuses to run as root: drop to nobody when the tests run as root.
  const asRoot = process.getuid?.() === 0 ? ['-u', 'nobody'] : [];
  const child = spawn(PGBOUNCER, [...asRoot, join(dir, 'pgbouncer.ini')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let output = '';
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await eventually(
    `pgbouncer listening on ${port} (${output})`,
    async () => {
      if (child.exitCode !== null) throw new Error(`pgbouncer exited ${child.exitCode}: ${output}`);
      const client = new pg.Client({ host: '127.0.0.1', port, user: app.user, password: app.password, database: database.name });
      try {
        await client.connect();
        await client.query('select 1');
        return true;
      } catch {
        return undefined;
      } finally {
        await client.end().catch(() => undefined);
      }
    },
    10_000,
    100,
  );
  return { port, process: child, dir };
}

/** The roles PgBouncer has clients of for the test database, from its admin console (simple protocol only). */
async function pooledRoles(port: number, database: TestDatabase): Promise<string[]> {
  const client = new pg.Client({ host: '127.0.0.1', port, user: database.settings.admin.user, database: 'pgbouncer' });
  await client.connect();
  try {
    const clients = await client.query<{ database: string; user: string }>('SHOW CLIENTS');
    return [...new Set(clients.rows.filter((r) => r.database === database.name).map((r) => r.user))].sort();
  } finally {
    await client.end();
  }
}

/**
 * The services behind PgBouncer in transaction mode (docs/operations.md, the connection budget):
 * prepared statements sent unnamed (DATABASE_PREPARED_STATEMENTS=false), and the tenant context,
 * set per transaction, still isolating tenants although their transactions share server
 * connections.
 */
describe('behind PgBouncer in transaction mode', () => {
  const adminToken = randomBytes(32).toString('base64url');
  const namespace = `pgb-${randomBytes(3).toString('hex')}`;
  let database: TestDatabase;
  let bouncer: Awaited<ReturnType<typeof startPgBouncer>> | undefined;
  let platform: RunningPlatform | undefined;

  beforeAll(async () => {
    database = await createTestDatabase('pgbouncer');
    bouncer = await startPgBouncer(database);
    const admin = database.settings.admin;
    platform = await startPlatform({
      // Migrations ran against PostgreSQL directly (createTestDatabase); the services go through PgBouncer.
      databaseUrl: `postgres://${encodeURIComponent(admin.user)}@127.0.0.1:${bouncer.port}/${database.name}`,
      services: ['account', 'run'],
      env: {
        DATABASE_PREPARED_STATEMENTS: 'false',
        DATABASE_POOL_SIZE: '6',
        PLATFORM_ADMIN_TOKEN: adminToken,
        MASTER_KEY: randomBytes(32).toString('base64'),
        NATS_NAMESPACE: namespace,
        RATE_LIMIT_ENABLED: 'false',
        LOG_LEVEL: 'warn',
      },
    });
  }, 90_000);

  afterAll(async () => {
    await platform?.stop();
    if (bouncer) {
      bouncer.process.kill('SIGTERM');
      rmSync(bouncer.dir, { recursive: true, force: true });
    }
    await database?.drop();
    await removeNatsNamespace(namespace);
  }, 30_000);

  it('runs workflows to succeeded, and tenant B still cannot read tenant A’s runs', async () => {
    const gw = platform!.gatewayUrl;
    const [a, b] = await Promise.all([createTenant(gw, adminToken, 'pgbouncer-a'), createTenant(gw, adminToken, 'pgbouncer-b')]);
    const workflow = await call<{ id: string }>(gw, '/api/v1/workflow/workflows', {
      headers: withKey(a.test_key),
      body: { name: 'through pgbouncer', steps: [{ id: 'double', type: 'transform', input: { value: '{% input.x * 2 %}' } }] },
    });
    expect(workflow.status).toBe(201);
    // Several runs at once: each pool client uses each statement more than once, on whichever
    // server connection PgBouncer hands it, as named statements could not.
    const runIds = await Promise.all(
      Array.from({ length: 8 }, async (_, x) => {
        const started = await call<{ run_id: string }>(gw, '/v1/automations/run', {
          headers: withKey(a.test_key),
          body: { automation_id: workflow.body.id, input: { x } },
        });
        expect(started.status).toBe(202);
        return started.body.run_id;
      }),
    );
    const outputs = await Promise.all(
      runIds.map((id) =>
        eventually(
          `run ${id} to finish`,
          async () => {
            const res = await call<{ status: string; output: unknown }>(gw, `/run/executions/${id}`, { headers: withKey(a.test_key) });
            return isFinished(res.body.status) ? res.body : undefined;
          },
          30_000,
          100,
        ),
      ),
    );
    expect(outputs).toEqual(runIds.map((_, x) => expect.objectContaining({ status: 'succeeded', output: { value: 2 * x } })));
    const runId = runIds[0];

    expect((await call(gw, `/run/executions/${runId}`, { headers: withKey(b.test_key) })).status).toBe(404);
    expect((await call(gw, `/run/executions/${runId}`, { headers: withKey(a.test_key) })).status).toBe(200);
    // The services' pools are PgBouncer's clients: nothing reached PostgreSQL around it.
    const { app, system } = database.settings;
    expect(await pooledRoles(bouncer!.port, database)).toEqual([app.user, system.user].sort());
  }, 60_000);
});
