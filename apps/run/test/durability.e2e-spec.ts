import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { createTenant, freePort, serviceEntry, startProcess, type ManagedProcess, type TestTenant } from '@platform/testing';
import { createWorkflow, env, start, waitFor } from './engine-helpers.js';

function runPid(): number {
  const file = readdirSync(env.pidDir).find((f) => f.startsWith('run.'));
  if (!file) throw new Error('no run process');
  return Number(file.split('.')[1]);
}

async function exited(pid: number): Promise<void> {
  for (let i = 0; i < 100; i++) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`process ${pid} did not exit`);
}

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
    const pid = runPid();
    process.kill(pid, 'SIGKILL');
    await exited(pid);
    await new Promise((r) => setTimeout(r, 2500)); // the delay ends while no run service is up
    await startProcess({ name: 'run', entry: serviceEntry('run'), env: env.serviceEnv.run, healthUrl: `${env.serviceUrls.run}/actuator/health`, pidDir: env.pidDir });
    const done = await waitFor(tenant, runId, undefined, 20_000);
    expect(done).toMatchObject({ status: 'succeeded', output: { done: true } });
    expect(await successesPerPath([runId])).toEqual([1, 1, 1]);
  });

  it('shares 200 executions between two replicas with each completing once', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    extra.push(await startProcess({ name: 'run-replica', entry: serviceEntry('run'), env: { ...env.serviceEnv.run, PORT: String(port) }, healthUrl: `${url}/actuator/health`, pidDir: env.pidDir }));
    const wf = await createWorkflow(tenant, [
      { id: 'one', type: 'transform', input: { n: '{% input.n %}' } },
      { id: 'two', type: 'transform', input: { n: '{% steps.one.output.n * 2 %}' } },
    ]);
    const ids: string[] = [];
    for (let batch = 0; batch < 10; batch++) {
      ids.push(...(await Promise.all(Array.from({ length: 20 }, (_, i) => start(tenant, wf, { n: batch * 20 + i })))));
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
