import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { JetStreamApiError, jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import pg from 'pg';
import { RUN_WORK_QUEUE, connectNats, isFinished, streamPrefix } from '@platform/messaging';
import {
  call,
  createTenant,
  createTestDatabase,
  eventually,
  removeNatsNamespace,
  serviceEntry,
  startPlatform,
  startProcess,
  withKey,
  type ManagedProcess,
  type RunningPlatform,
  type TestDatabase,
  type TestTenant,
} from '@platform/testing';

/**
 * JetStream is rebuilt from PostgreSQL (docs/operations.md, "Back up and restore"): with runs in
 * flight, the run work stream is deleted under the platform, as a lost NATS volume would; after a
 * restart of the run service, which makes its streams again, the reconciler re-sends what the
 * executions table says is owed, and every run finishes, each step once. The platform runs in a
 * NATS namespace of its own, so the stream deleted is this test's and no other's.
 */
describe('JetStream rebuilt from PostgreSQL', () => {
  const adminToken = randomBytes(32).toString('base64url');
  const namespace = `jsr-${randomBytes(3).toString('hex')}`;
  const workStream = `${streamPrefix(namespace)}${RUN_WORK_QUEUE.stream}`;
  let database: TestDatabase;
  let platform: RunningPlatform | undefined;
  let restarted: ManagedProcess | undefined;
  let nc: NatsConnection;
  let db: pg.Client;
  let tenant: TestTenant;

  beforeAll(async () => {
    database = await createTestDatabase('jsrebuild');
    platform = await startPlatform({
      databaseUrl: database.url,
      services: ['account', 'run'],
      env: {
        // Every start and every wake-up goes through the work stream, none runs inline.
        RUN_INLINE_CONCURRENCY: '0',
        RUN_RECONCILE_INTERVAL_MS: '500',
        PLATFORM_ADMIN_TOKEN: adminToken,
        MASTER_KEY: randomBytes(32).toString('base64'),
        NATS_NAMESPACE: namespace,
        RATE_LIMIT_ENABLED: 'false',
        LOG_LEVEL: 'warn',
      },
    });
    nc = await connectNats({ url: process.env.NATS_URL ?? 'nats://127.0.0.1:4222', name: `test-${namespace}` });
    db = new pg.Client({ ...database.settings.admin, database: database.name });
    await db.connect();
    tenant = await createTenant(platform.gatewayUrl, adminToken, 'jetstream-rebuild');
  }, 90_000);

  afterAll(async () => {
    await restarted?.stop();
    await platform?.stop();
    await db?.end();
    await nc?.close();
    await database?.drop();
    await removeNatsNamespace(namespace);
  }, 30_000);

  const streamExists = async (): Promise<boolean> => {
    const jsm = await jetstreamManager(nc);
    try {
      await jsm.streams.info(workStream);
      return true;
    } catch (error) {
      if (error instanceof JetStreamApiError) return false;
      throw error;
    }
  };

  it('finishes runs in flight and runs started while the stream was gone, each step once', async () => {
    const gw = platform!.gatewayUrl;
    const workflow = await call<{ id: string }>(gw, '/api/v1/workflow/workflows', {
      headers: withKey(tenant.test_key),
      body: {
        name: 'through a lost stream',
        steps: [
          { id: 'before', type: 'transform', input: { x: '{% input.x %}' } },
          { id: 'pause', type: 'delay', input: { seconds: 2 } },
          { id: 'after', type: 'transform', input: { double: '{% input.x * 2 %}' } },
        ],
      },
    });
    expect(workflow.status).toBe(201);
    const startRun = async (x: number) => {
      const started = await call<{ run_id: string }>(gw, '/v1/automations/run', {
        headers: withKey(tenant.test_key),
        body: { automation_id: workflow.body.id, input: { x } },
      });
      expect(started.status).toBe(202);
      return started.body.run_id;
    };
    const statusOf = async (id: string) => (await call<{ status: string }>(gw, `/run/executions/${id}`, { headers: withKey(tenant.test_key) })).body.status;

    // In flight: each has run its first step and waits for its delay's wake-up.
    const inFlight = await Promise.all([1, 2, 3, 4].map(startRun));
    await eventually(
      'the runs to wait on their delay',
      async () => ((await Promise.all(inFlight.map(statusOf))).every((s) => s === 'waiting') ? true : undefined),
      20_000,
      100,
    );

    // The stream goes, with its consumer and whatever it held (a lost NATS volume).
    expect(await streamExists()).toBe(true);
    await (await jetstreamManager(nc)).streams.delete(workStream);
    expect(await streamExists()).toBe(false);

    // Accepted while there is no stream: the row is committed, its work item cannot be stored.
    const startedWithout = await Promise.all([5, 6].map(startRun));
    await new Promise((r) => setTimeout(r, 2500)); // the delays are due while nothing can wake them
    expect(await Promise.all([...inFlight, ...startedWithout].map(statusOf))).not.toContain('succeeded');

    // Restart the run service (docs/operations.md: streams are made at start).
    const run = platform!.processes.get('run')!;
    await run.stop();
    restarted = await startProcess({
      name: 'run',
      entry: serviceEntry('run'),
      env: platform!.serviceEnv.run,
      healthUrl: `${platform!.serviceUrls.run}/actuator/health`,
    });
    expect(await streamExists()).toBe(true);

    const ids = [...inFlight, ...startedWithout];
    const finished = await Promise.all(
      ids.map((id) =>
        eventually(
          `run ${id} to finish`,
          async () => {
            const res = await call<{ status: string; output: unknown }>(gw, `/run/executions/${id}`, { headers: withKey(tenant.test_key) });
            return isFinished(res.body.status) ? res.body : undefined;
          },
          30_000,
          200,
        ),
      ),
    );
    expect(finished).toEqual([1, 2, 3, 4, 5, 6].map((x) => expect.objectContaining({ status: 'succeeded', output: { double: 2 * x } })));
    // PostgreSQL's record: every step of every run succeeded exactly once, none run twice by the re-sends.
    const { rows } = await db.query<{ n: number }>(
      `select count(*)::int as n from run.execution_steps where execution_id = any($1) and status = 'succeeded' group by execution_id, path`,
      [ids],
    );
    expect(rows.map((r) => r.n)).toEqual(Array(ids.length * 3).fill(1));
  }, 120_000);
});
