import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { Bus, RunSubjects, configureNamespace, connectNats, usageEventId } from '@platform/messaging';
import { createTenant, eventually, freePort, serviceEntry, startProcess, withKey, type ManagedProcess, type TestTenant } from '@platform/testing';
import { env, gw, usageOf } from './support.js';

/**
 * A NATS server of the test's own on a fixed port, restartable: with JetStream (its store in a
 * temp folder) or without, when every JetStream publish fails while requests still work.
 */
class PrivateNats {
  private server?: ChildProcess;
  private readonly store = mkdtempSync(join(tmpdir(), 'usage-outbox-nats-'));

  constructor(private readonly port: number) {}

  get url(): string {
    return `nats://127.0.0.1:${this.port}`;
  }

  async start(jetStream: boolean): Promise<void> {
    const args = ['-a', '127.0.0.1', '-p', String(this.port), ...(jetStream ? ['-js', '-sd', this.store] : [])];
    this.server = spawn('nats-server', args, { stdio: 'ignore' });
    await eventually('the private NATS server accepts connections', async () => {
      const nc = await connectNats({ url: this.url, name: 'usage-outbox-probe' }).catch(() => undefined);
      await nc?.close();
      return nc ? true : undefined;
    });
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server || server.exitCode !== null || server.signalCode !== null) return;
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGKILL');
    await exited;
  }

  async remove(): Promise<void> {
    await this.stop();
    rmSync(this.store, { recursive: true, force: true });
  }
}

describe('usage facts through the outbox', () => {
  let tenant: TestTenant;
  let db: pg.Client;
  let nats: PrivateNats | undefined;
  let replica: ManagedProcess | undefined;

  beforeAll(async () => {
    tenant = await createTenant(env.gatewayUrl, env.adminToken, 'usage-outbox');
    db = new pg.Client({ connectionString: env.databaseUrl });
    await db.connect();
    nats = new PrivateNats(await freePort());
    await nats.start(true);
    // A replica of the run service on that server, beside the platform's own on the shared one.
    const port = await freePort();
    replica = await startProcess({
      name: 'run-private-nats',
      entry: serviceEntry('run'),
      env: { ...env.serviceEnv.run, PORT: String(port), NATS_URL: nats.url },
      healthUrl: `http://127.0.0.1:${port}/actuator/health`,
      pidDir: env.pidDir,
    });
  });

  afterAll(async () => {
    await replica?.stop();
    await nats?.remove();
    await db?.end();
  });

  it('counts every run started while its replica could not publish to JetStream, once', async () => {
    const created = await gw('/api/v1/workflow/workflows', {
      headers: withKey(tenant.live_key),
      body: { name: 'metered', steps: [{ id: 'one', type: 'transform', input: { ok: true } }] },
    });
    expect(created.status).toBe(201);
    const workflowId = created.body.id as string;

    // The replica's server comes back without JetStream: starts still arrive (core NATS), every usage publish fails.
    await nats!.stop();
    await nats!.start(false);
    configureNamespace(env.serviceEnv.run.NATS_NAMESPACE ?? '');
    const nc = await connectNats({ url: nats!.url, name: 'usage-outbox-e2e' });
    const bus = new Bus(nc);
    const context = { requestId: 'usage-outbox-e2e', tenantId: tenant.tenant_id, environmentId: tenant.production_data_plane_id };
    const startRun = (i: number) =>
      bus.request(RunSubjects.executionsStart, { workflowId, input: { i }, trigger: { type: 'event', id: null }, keyMode: 'live' }, context);
    const runIds: string[] = [];
    try {
      // The first waits for the replica to reconnect (until then nobody answers, and nothing starts).
      runIds.push((await eventually('the replica takes starts again', () => startRun(0).catch(() => undefined), 20_000, 250)).runId);
      for (let i = 1; i < 5; i++) runIds.push((await startRun(i)).runId);
    } finally {
      await nc.close();
    }
    // Each run's fact was committed with the run: it is in the outbox, since the replica could not publish it.
    const events = runIds.map((id) => usageEventId('run', id));
    const { rows } = await db.query<{ event_id: string; metric: string; key_mode: string }>(
      `select event_id, metric, key_mode from run.usage_outbox where event_id = any($1::uuid[])`,
      [events],
    );
    expect(rows.map((r) => r.event_id).sort()).toEqual([...events].sort());
    expect(rows.every((r) => r.metric === 'runs' && r.key_mode === 'live')).toBe(true);

    // A relay publishes them (the replica's keeps failing; the platform's run service, on the
    // shared NATS, succeeds) and the subscription service counts each run once.
    const started = async () => (await db.query<{ n: number }>(`select count(*)::int as n from run.executions where workflow_id = $1`, [workflowId])).rows[0].n;
    const used = () => gw('/subscription/usage', { headers: withKey(tenant.live_key) }).then((res) => usageOf(res.body, 'runs').used);
    expect(await started()).toBe(runIds.length);
    await eventually('the runs are counted', async () => ((await used()) === runIds.length ? true : undefined), 20_000, 250);
    await eventually(
      'the outbox is empty',
      async () => ((await db.query(`select 1 from run.usage_outbox where event_id = any($1::uuid[])`, [events])).rowCount === 0 ? true : undefined),
      10_000,
      250,
    );
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await used()).toBe(await started());
  });

  it('shows another tenant none of these runs', async () => {
    const other = await createTenant(env.gatewayUrl, env.adminToken, 'usage-outbox-other');
    const res = await gw('/subscription/usage', { headers: withKey(other.live_key) });
    expect(res.status).toBe(200);
    expect(usageOf(res.body, 'runs').used).toBe(0);
  });
});
