import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { Bus, RunSubjects, configureNamespace, connectNats } from '@platform/messaging';
import { createTenant, freePort, serviceEntry, startProcess, type ManagedProcess, type TestTenant, processExited, processIds } from '@platform/testing';
import { createWorkflow, env, start, waitFor } from './engine-helpers.js';

describe('durable execution', () => {
  let tenant: TestTenant;
  let db: pg.Client;
  const extra: ManagedProcess[] = [];

  beforeAll(async () => {
    tenant = await createTenant(env.gatewayUrl, env.adminToken, 'durable');
    db = new pg.Client({ connectionString: env.databaseUrl });
    await db.connect();
  });

  afterAll(async () => {
    await Promise.all(extra.map((p) => p.stop()));
    await db?.end();
  });

  /** Each step path of an execution recorded as succeeded exactly once. */
  async function successesPerPath(executionIds: string[]): Promise<number[]> {
    const { rows } = await db.query<{ n: number }>(
      `select count(*)::int as n from run.execution_steps where execution_id = any($1) and status = 'succeeded' group by execution_id, path`,
      [executionIds],
    );
    return rows.map((r) => r.n);
  }

  it('survives SIGKILL of the run service during a delay and completes exactly once', async () => {
    const wf = await createWorkflow(tenant, [
      { id: 'before', type: 'transform', input: { at: 'before' } },
      { id: 'pause', type: 'delay', input: { seconds: 2 } },
      { id: 'after', type: 'transform', input: { done: true } },
    ]);
    const runId = await start(tenant, wf);
    await waitFor(tenant, runId, ['waiting']);
    const pid = processIds(env.pidDir, 'run')[0];
    process.kill(pid, 'SIGKILL');
    await processExited(pid);
    await new Promise((r) => setTimeout(r, 2500)); // the delay ends while no run service is up
    await startProcess({
      name: 'run',
      entry: serviceEntry('run'),
      env: env.serviceEnv.run,
      healthUrl: `${env.serviceUrls.run}/actuator/health`,
      pidDir: env.pidDir,
    });
    const done = await waitFor(tenant, runId, undefined, 20_000);
    expect(done).toMatchObject({ status: 'succeeded', output: { done: true } });
    expect(await successesPerPath([runId])).toEqual([1, 1, 1]);
  });

  it('resumes a run the accepting process was running when it was SIGKILLed, once its lease expires', async () => {
    // The run is inserted already claimed by the process that accepted the start, which runs it
    // at once; killed mid-step, the lease runs out and the reconciler hands it to the new process.
    const wf = await createWorkflow(tenant, [
      { id: 'before', type: 'transform', input: { at: 'before' } },
      { id: 'spin', type: 'code', input: { code: 'const t = Date.now(); while (Date.now() - t < 800) {} return 1;' } },
      { id: 'after', type: 'transform', input: { done: true } },
    ]);
    const runId = await start(tenant, wf);
    const running = await waitFor(tenant, runId, ['running']);
    expect(running.status).toBe('running');
    await new Promise((r) => setTimeout(r, 200));
    const pid = processIds(env.pidDir, 'run')[0];
    process.kill(pid, 'SIGKILL');
    await processExited(pid);
    await startProcess({
      name: 'run',
      entry: serviceEntry('run'),
      env: env.serviceEnv.run,
      healthUrl: `${env.serviceUrls.run}/actuator/health`,
      pidDir: env.pidDir,
    });
    const done = await waitFor(tenant, runId, undefined, 20_000);
    expect(done).toMatchObject({ status: 'succeeded', output: { done: true } });
    expect(await successesPerPath([runId])).toEqual([1, 1, 1]);
  });

  it('shares 200 executions between two replicas with each completing once', async () => {
    // The replica takes no starts of its own (RUN_INLINE_CONCURRENCY=0): what it accepts goes to
    // the work queue, which both replicas drain, while the first runs what it accepts itself.
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    extra.push(
      await startProcess({
        name: 'run-replica',
        entry: serviceEntry('run'),
        env: { ...env.serviceEnv.run, PORT: String(port), RUN_INLINE_CONCURRENCY: '0' },
        healthUrl: `${url}/actuator/health`,
        pidDir: env.pidDir,
      }),
    );
    const wf = await createWorkflow(tenant, [
      { id: 'one', type: 'transform', input: { n: '{% input.n %}' } },
      { id: 'two', type: 'transform', input: { n: '{% steps.one.output.n * 2 %}' } },
    ]);
    // Starts over NATS, as triggers, webhooks and the portal make them: the replicas share them as a queue group.
    configureNamespace(env.serviceEnv.run.NATS_NAMESPACE);
    const nc = await connectNats({ url: env.serviceEnv.run.NATS_URL ?? 'nats://127.0.0.1:4222', name: 'durability-e2e' });
    const bus = new Bus(nc);
    const context = { requestId: 'durability', tenantId: tenant.tenant_id, environmentId: tenant.sandbox_data_plane_id };
    const ids: string[] = [];
    try {
      for (let batch = 0; batch < 10; batch++) {
        const started = await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            bus.request(RunSubjects.executionsStart, { workflowId: wf, input: { n: batch * 20 + i }, trigger: { type: 'event', id: null } }, context),
          ),
        );
        expect(started.every((s) => s.status === 'queued')).toBe(true);
        ids.push(...started.map((s) => s.runId));
      }
    } finally {
      await nc.close();
    }
    const deadline = Date.now() + 60_000;
    let finished = 0;
    while (Date.now() < deadline) {
      const { rows } = await db.query<{ n: number }>(`select count(*)::int as n from run.executions where id = any($1) and status = 'succeeded'`, [ids]);
      finished = rows[0].n;
      if (finished === ids.length) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(finished).toBe(200);
    const outputs = await db.query<{ n: number }>(`select (output ->> 'n')::int as n from run.executions where id = any($1) order by 1`, [ids]);
    expect(outputs.rows.map((r) => r.n)).toEqual(Array.from({ length: 200 }, (_, i) => i * 2));
    const counts = await successesPerPath(ids);
    expect(counts).toHaveLength(400);
    expect(counts.every((n) => n === 1)).toBe(true);
    const workers = await db.query<{ worker: string; n: number }>(
      `select data ->> 'worker' as worker, count(*)::int as n from run.execution_logs where execution_id = any($1) and message like '%succeeded' group by 1`,
      [ids],
    );
    expect(workers.rows.length).toBe(2); // both replicas did part of the work
  });
});
