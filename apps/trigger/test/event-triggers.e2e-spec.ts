import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { call, createTenant, e2eEnvironment, withKey, type TestTenant, sleep, eventually } from '@platform/testing';

const env = e2eEnvironment();
type Json = Record<string, unknown> & { data?: Record<string, unknown>[] };
const gw = (path: string, request?: Parameters<typeof call>[2]) => call<Json>(env.gatewayUrl, path, request);

async function createWorkflow(tenant: TestTenant, steps: unknown[]): Promise<string> {
  const res = await gw('/api/v1/workflow/workflows', { headers: withKey(tenant.test_key), body: { name: `wf-${randomUUID().slice(0, 8)}`, steps } });
  if (res.status !== 201) throw new Error(`workflow not created: ${res.status} ${res.text}`);
  return res.body.id as string;
}

async function runToEnd(tenant: TestTenant, workflowId: string): Promise<string> {
  const res = await gw('/v1/automations/run', { headers: withKey(tenant.test_key), body: { automation_id: workflowId, input: {} } });
  expect(res.status).toBe(202);
  const runId = res.body.run_id as string;
  await eventually('the run to finish', async () => {
    const r = await gw(`/run/executions/${runId}`, { headers: withKey(tenant.test_key) });
    return ['succeeded', 'failed'].includes(r.body.status as string) ? r.body : undefined;
  });
  return runId;
}

/** The run a trigger's first started firing began, once it has succeeded. */
async function handlerRun(tenant: TestTenant, triggerId: string): Promise<Json> {
  const execution = await eventually('the trigger execution', async () => {
    const rows = (await gw(`/triggers/${triggerId}/executions`, { headers: withKey(tenant.test_key) })).body.data ?? [];
    return rows.find((e) => e.status === 'started');
  });
  return eventually('the handler run', async () => {
    const r = await gw(`/run/executions/${execution.run_id as string}`, { headers: withKey(tenant.test_key) });
    return r.body.status === 'succeeded' ? r.body : undefined;
  });
}

describe('event triggers end to end', () => {
  let a: TestTenant;
  let b: TestTenant;

  beforeAll(async () => {
    [a, b] = await Promise.all([createTenant(env.gatewayUrl, env.adminToken, 'events-a'), createTenant(env.gatewayUrl, env.adminToken, 'events-b')]);
  });

  it('fires on run.execution.failed when the filter holds, not for a succeeding run nor for another tenant', async () => {
    const failing = await createWorkflow(a, [{ id: 'boom', type: 'fail', input: { message: 'no luck', code: 'bad' } }]);
    const succeeding = await createWorkflow(a, [{ id: 'ok', type: 'transform', input: { fine: true } }]);
    const handler = await createWorkflow(a, [{ id: 'note', type: 'transform', input: { failed: '{% input.failed_run %}' } }]);
    const filter = `workflow_id = "${failing}" or workflow_id = "${succeeding}"`;
    const created = await gw('/triggers', {
      headers: withKey(a.test_key),
      body: {
        name: 'on-failure',
        workflow_id: handler,
        type: 'event',
        event: { type: 'run.execution.failed', filter },
        input: '{ "failed_run": event.execution_id, "code": event.error.code }',
      },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ type: 'event', status: 'enabled', event: { type: 'run.execution.failed', filter }, next_fire_at: null });
    const id = created.body.id as string;
    // Tenant B's trigger with a filter that would match anything: never sees tenant A's events.
    const bHandler = await createWorkflow(b, [{ id: 'x', type: 'transform', input: {} }]);
    const bTrigger = await gw('/triggers', {
      headers: withKey(b.test_key),
      body: { name: 'spy', workflow_id: bHandler, type: 'event', event: { type: 'run.execution.failed' } },
    });
    expect(bTrigger.status).toBe(201);

    await runToEnd(a, succeeding);
    const failedRun = await runToEnd(a, failing);

    const run = await handlerRun(a, id);
    expect(run.input).toEqual({ failed_run: failedRun, code: 'bad' });
    expect(run.trigger).toEqual({ type: 'event', id });

    await sleep(1500);
    const all = (await gw(`/triggers/${id}/executions`, { headers: withKey(a.test_key) })).body.data ?? [];
    expect(all).toHaveLength(1);
    expect((await gw(`/triggers/${bTrigger.body.id as string}/executions`, { headers: withKey(b.test_key) })).body.data).toHaveLength(0);
    const handlerRuns = (await gw(`/run/executions?workflow_id=${handler}`, { headers: withKey(a.test_key) })).body.data ?? [];
    expect(handlerRuns).toHaveLength(1);
  });

  it('hears a trigger as soon as it is created, disabled or enabled, after events that found no listener (listeners kept per tenant)', async () => {
    const c = await createTenant(env.gatewayUrl, env.adminToken, 'events-c');
    const failing = await createWorkflow(c, [{ id: 'boom', type: 'fail', input: { message: 'no luck', code: 'late' } }]);
    const handler = await createWorkflow(c, [{ id: 'note', type: 'transform', input: {} }]);
    // The trigger service learns that nothing of tenant C listens.
    await runToEnd(c, failing);
    await sleep(300);
    const created = await gw('/triggers', {
      headers: withKey(c.test_key),
      body: { name: 'late', workflow_id: handler, type: 'event', event: { type: 'run.execution.failed', filter: `workflow_id = "${failing}"` } },
    });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const firings = async () => ((await gw(`/triggers/${id}/executions`, { headers: withKey(c.test_key) })).body.data ?? []).length;

    await runToEnd(c, failing);
    await handlerRun(c, id);
    expect(await firings()).toBe(1);

    expect((await gw(`/triggers/${id}/disable`, { method: 'PUT', headers: withKey(c.test_key) })).status).toBe(200);
    await runToEnd(c, failing);
    await sleep(1000);
    expect(await firings()).toBe(1);

    expect((await gw(`/triggers/${id}/enable`, { method: 'PUT', headers: withKey(c.test_key) })).status).toBe(200);
    await runToEnd(c, failing);
    await eventually('the second firing', async () => ((await firings()) === 2 ? true : undefined));
  });

  it('gives the filter and the input one document: the event itself, with trigger (and event, as before) beside it', async () => {
    const failing = await createWorkflow(a, [{ id: 'boom', type: 'fail', input: { message: 'no luck', code: 'worse' } }]);
    const handler = await createWorkflow(a, [{ id: 'note', type: 'transform', input: {} }]);
    const trigger = await gw('/triggers', {
      headers: withKey(a.test_key),
      body: {
        name: 'one-document',
        workflow_id: handler,
        type: 'event',
        event: { type: 'run.execution.failed', filter: `workflow_id = "${failing}" and error.code = "worse"` },
        input: '{ "run": execution_id, "code": error.code, "same": event.execution_id = execution_id, "by": trigger.name }',
      },
    });
    expect(trigger.status).toBe(201);
    const failedRun = await runToEnd(a, failing);
    const run = await handlerRun(a, trigger.body.id as string);
    expect(run.input).toEqual({ run: failedRun, code: 'worse', same: true, by: 'one-document' });
  });

  it('fires on task.task.completed with the decision, once', async () => {
    const approval = await createWorkflow(a, [{ id: 'approve', type: 'approval', input: { title: 'Refund?' } }]);
    const handler = await createWorkflow(a, [{ id: 'note', type: 'transform', input: { decision: '{% input.decision %}' } }]);
    const trigger = await gw('/triggers', {
      headers: withKey(a.test_key),
      body: {
        name: 'on-decision',
        workflow_id: handler,
        type: 'event',
        event: { type: 'task.task.completed', filter: `workflow_id = "${approval}"` },
        input: '{ "decision": event.decision, "task": event.task_id }',
      },
    });
    expect(trigger.status).toBe(201);
    const started = await gw('/v1/automations/run', { headers: withKey(a.test_key), body: { automation_id: approval, input: {} } });
    const runId = started.body.run_id as string;
    const task = await eventually('the task', async () => (await gw(`/tasks?execution_id=${runId}`, { headers: withKey(a.test_key) })).body.data?.[0]);
    const done = await gw(`/tasks/${task.id as string}/complete`, { method: 'POST', headers: withKey(a.test_key), body: { decision: 'reject' } });
    expect(done.status).toBe(200);

    const run = await handlerRun(a, trigger.body.id as string);
    expect(run.input).toEqual({ decision: 'reject', task: task.id });
    await sleep(1000);
    expect((await gw(`/triggers/${trigger.body.id as string}/executions`, { headers: withKey(a.test_key) })).body.data).toHaveLength(1);
  });

  it("fires a customer's trigger only on its own customer's events, never on another customer's or the tenant's", async () => {
    const customer = async (name: string) => (await gw('/portal/customers', { headers: withKey(a.test_key), body: { name } })).body.id as string;
    const [c1, c2] = [await customer('Globex'), await customer('Initech')];
    const k1 = await gw('/account/api-keys', {
      headers: withKey(a.test_key),
      body: {
        name: 'globex',
        type: 'customer',
        customer_id: c1,
        scopes: ['triggers:write', 'triggers:read', 'workflows:write', 'automations:run', 'executions:read'],
        data_plane_id: a.sandbox_data_plane_id,
      },
    });
    expect(k1.status).toBe(201);
    const c1Key = withKey(k1.body.key as string);
    const work = await createWorkflow(a, [{ id: 'ok', type: 'transform', input: { secret_note: 'for the runner only' } }]);
    const spy = await gw('/api/v1/workflow/workflows', { headers: c1Key, body: { name: 'spy', steps: [{ id: 'x', type: 'transform', input: {} }] } });
    expect(spy.status).toBe(201);
    const trigger = await gw('/triggers', {
      headers: c1Key,
      body: { name: 'every run', workflow_id: spy.body.id, type: 'event', event: { type: 'run.execution.succeeded' }, input: '{ "seen": event }' },
    });
    expect(trigger.status).toBe(201);
    const runAs = async (headers: Record<string, string>) => {
      const res = await gw('/v1/automations/run', { headers, body: { automation_id: work, input: {} } });
      expect(res.status).toBe(202);
      const runId = res.body.run_id as string;
      await eventually('the run', async () => ((await gw(`/run/executions/${runId}`, { headers })).body.status === 'succeeded' ? true : undefined));
      return runId;
    };
    // The tenant's own run and another customer's run first; then the customer's own, which does fire.
    await runAs(withKey(a.test_key));
    await runAs(withKey(a.test_key, { 'x-scope-key': c2 }));
    const own = await runAs(c1Key);
    const fired = await eventually('the trigger on its own run', async () => {
      const rows = (await gw(`/triggers/${trigger.body.id as string}/executions`, { headers: c1Key })).body.data ?? [];
      return rows.find((e) => e.status === 'started');
    });
    const run = await eventually('the spy run', async () => {
      const r = await gw(`/run/executions/${fired.run_id as string}`, { headers: c1Key });
      return r.body.status === 'succeeded' ? r.body : undefined;
    });
    expect(run.input).toMatchObject({ seen: { execution_id: own, customer_id: c1 } });
    await sleep(1500);
    const all = (await gw(`/triggers/${trigger.body.id as string}/executions`, { headers: c1Key })).body.data ?? [];
    expect(all).toHaveLength(1);
    const spyRuns = (await gw(`/run/executions?workflow_id=${spy.body.id as string}`, { headers: withKey(a.test_key) })).body.data ?? [];
    expect(spyRuns.map((r) => (r.input as { seen: { customer_id: string } }).seen.customer_id)).toEqual([c1]);
  });
});
