import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { NatsConnection } from '@nats-io/transport-node';
import { Bus, RunSubjects, configureNamespace, connectNats } from '@platform/messaging';
import { createTenant, withKey, type TestTenant } from '@platform/testing';
import { createWorkflow, env, gw, start, waitFor, type Json } from './engine-helpers.js';

/**
 * A workflow of pure steps, once its version is known to the run service (after its first start
 * there), is run before its execution row exists and written settled with it
 * (engine/runner/pure-runs.ts). Every start after the first goes that way: each must leave the
 * same execution, steps, logs, events and usage as a run by a worker, and a new version must be
 * noticed at once.
 */
describe('pure workflows run ahead of their row', () => {
  let a: TestTenant;
  let b: TestTenant;
  let nc: NatsConnection;
  const events: { subject: string; id: string; status: string; tenantId?: string }[] = [];

  beforeAll(async () => {
    [a, b] = await Promise.all([createTenant(env.gatewayUrl, env.adminToken, 'pure-a'), createTenant(env.gatewayUrl, env.adminToken, 'pure-b')]);
    configureNamespace(env.serviceEnv.run.NATS_NAMESPACE);
    nc = await connectNats({ url: 'nats://127.0.0.1:4222', name: 'pure-runs-e2e' });
    const bus = new Bus(nc);
    for (const subject of [RunSubjects.executionStarted, RunSubjects.executionCompleted, RunSubjects.executionFailed])
      bus.subscribeAll(subject, (e) => events.push({ subject, id: e.data.executionId, status: e.data.status, tenantId: e.context.tenantId }));
    await nc.flush();
  });

  afterAll(async () => {
    await nc?.close();
  });

  const eventsOf = async (runId: string, count: number) => {
    for (let i = 0; i < 200 && events.filter((e) => e.id === runId).length < count; i++) await new Promise((r) => setTimeout(r, 50));
    return events.filter((e) => e.id === runId).map((e) => [e.subject, e.status, e.tenantId]);
  };

  const steps = [
    { id: 'sum', type: 'transform', input: { total: '{% $sum(input.items) %}' } },
    { id: 'keep', type: 'set', input: { doubled: '{% steps.sum.output.total * 2 %}' } },
    { id: 'each', type: 'loop', items: '{% input.items %}', steps: [{ id: 'sq', type: 'transform', input: { v: '{% item * item %}' } }] },
    {
      id: 'big',
      type: 'condition',
      if: '{% vars.doubled > 10 %}',
      then: [{ id: 'yes', type: 'transform', input: { big: true, doubled: '{% vars.doubled %}' } }],
      else: [{ id: 'no', type: 'transform', input: { big: false } }],
    },
  ];

  it('every start records what a worker would: status, output, every step in order, logs, times, events and usage', async () => {
    const id = await createWorkflow(a, steps);
    const runs: Json[] = [];
    for (const items of [[1, 2], [3, 4], [5]]) runs.push(await waitFor(a, await start(a, id, { items })));

    expect(runs.map((r) => [r.status, r.output])).toEqual([
      ['succeeded', { big: false }],
      ['succeeded', { big: true, doubled: 14 }],
      ['succeeded', { big: false }],
    ]);
    for (const run of runs) {
      const ids = (run.steps as Json[]).map((s) => `${s.id as string}:${s.status as string}`);
      expect(ids).toEqual(expect.arrayContaining(['sum:succeeded', 'keep:succeeded', 'each:succeeded', 'big:succeeded']));
      expect(ids.filter((s) => s.startsWith('sq:'))).toHaveLength((run.input as { items: number[] }).items.length);
      expect(Date.parse(run.started_at as string)).toBeLessThanOrEqual(Date.parse(run.finished_at as string));
      for (const step of run.steps as Json[]) expect(Date.parse(step.started_at as string)).toBeGreaterThanOrEqual(Date.parse(run.started_at as string) - 1000);
      const logs = await gw(`/run/executions/${run.id as string}/logs?level=info`, { headers: withKey(a.test_key) });
      expect((logs.body.data as Json[]).map((l) => l.message)).toContain('transform sum succeeded');
      expect(await eventsOf(run.id as string, 2)).toEqual([
        ['run.execution.started', 'running', a.tenant_id],
        ['run.execution.completed', 'succeeded', a.tenant_id],
      ]);
    }
    const second = runs[1];
    expect((second.steps as Json[]).find((s) => s.id === 'sum')).toMatchObject({ input: { total: 7 }, output: { total: 7 }, attempt: 1 });
  });

  it('a failing pure run is recorded failed with its error and announced failed', async () => {
    const id = await createWorkflow(a, [
      { id: 'n', type: 'transform', input: { n: '{% input.n %}' } },
      { id: 'no', type: 'fail', input: { message: '{% "too big: " & $string(input.n) %}', code: 'too_big' } },
    ]);
    for (const n of [1, 2]) {
      const run = await waitFor(a, await start(a, id, { n }));
      expect(run).toMatchObject({ status: 'failed', error: { code: 'too_big', message: `too big: ${n}`, step_id: 'no' } });
      expect((run.steps as Json[]).map((s) => [s.id, s.status])).toEqual([
        ['n', 'succeeded'],
        ['no', 'failed'],
      ]);
      expect((await eventsOf(run.id as string, 2))[1]).toEqual(['run.execution.failed', 'failed', a.tenant_id]);
    }
  });

  it('a new version is run at once, and a version that waits runs the usual way', async () => {
    const id = await createWorkflow(a, [{ id: 'v', type: 'transform', input: { version: 1 } }]);
    await waitFor(a, await start(a, id));
    expect((await waitFor(a, await start(a, id))).output).toEqual({ version: 1 });
    const patched = await gw(`/run/workflows/${id}`, {
      method: 'PATCH',
      headers: withKey(a.test_key),
      body: { steps: [{ id: 'v', type: 'transform', input: { version: 2 } }] },
    });
    expect(patched.body).toMatchObject({ version: 2 });
    const afterPatch = await waitFor(a, await start(a, id));
    expect([afterPatch.workflow_version, afterPatch.output]).toEqual([2, { version: 2 }]);
    expect((await waitFor(a, await start(a, id))).output).toEqual({ version: 2 });

    await gw(`/run/workflows/${id}`, {
      method: 'PATCH',
      headers: withKey(a.test_key),
      body: {
        steps: [
          { id: 'pause', type: 'delay', input: { seconds: 1 } },
          { id: 'v', type: 'transform', input: { version: 3 } },
        ],
      },
    });
    for (let i = 0; i < 2; i++) {
      const run = await waitFor(a, await start(a, id));
      expect([run.status, run.workflow_version, run.output]).toEqual(['succeeded', 3, { version: 3 }]);
    }
  });

  it('another tenant sees none of it, and cannot start it', async () => {
    const id = await createWorkflow(a, [{ id: 't', type: 'transform', input: { secret: 'of a' } }]);
    await waitFor(a, await start(a, id));
    const run = await waitFor(a, await start(a, id));
    expect((await gw(`/run/executions/${run.id as string}`, { headers: withKey(b.test_key) })).status).toBe(404);
    expect((await gw(`/run/executions/${run.id as string}/logs`, { headers: withKey(b.test_key) })).status).toBe(404);
    expect((await gw('/v1/automations/run', { headers: withKey(b.test_key), body: { automation_id: id, input: {} } })).status).toBe(404);
    expect(((await gw(`/run/executions?workflow_id=${id}`, { headers: withKey(b.test_key) })).body.data as Json[]) ?? []).toEqual([]);
  });
});
