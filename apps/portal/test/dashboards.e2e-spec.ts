import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { withKey, type TestTenant } from '@platform/testing';
import { createCustomer, createWorkflow, customerKey, finished, gw, publish, tenant, type Json } from './portal-helpers.js';

const WIDGETS = [
  { type: 'executions_per_day' },
  { type: 'failure_rate', title: 'Failures' },
  { type: 'slowest_workflows', limit: 2 },
  { type: 'most_failing_workflows' },
  { type: 'open_tasks' },
];

describe('dashboards end to end', () => {
  let a: TestTenant;
  let b: TestTenant;
  let customer: string;
  let key: string;
  let dashboard: string;
  let bDashboard: string;
  const runs: Json[] = [];

  beforeAll(async () => {
    [a, b] = await Promise.all([tenant('dash-a'), tenant('dash-b')]);
    customer = await createCustomer(a, 'Globex');
    key = await customerKey(a, customer);
    const ok = await createWorkflow(a, [{ id: 't', type: 'transform', input: { x: 1 } }]);
    const bad = await createWorkflow(a, [{ id: 'f', type: 'fail', input: { message: 'no' } }]);
    const approval = await createWorkflow(a, [{ id: 'ask', type: 'approval', input: { title: 'OK?' } }]);
    const [pOk, pBad] = await Promise.all([publish(a, ok, 'all_customers'), publish(a, bad, 'all_customers')]);
    const started: string[] = [];
    for (const [published, who] of [
      [pOk, a.test_key],
      [pOk, a.test_key],
      [pBad, a.test_key],
      [pOk, key],
      [pBad, key],
      [pBad, key],
    ] as const) {
      const body = who === key ? {} : { customer_id: await createCustomer(a, `c-${started.length}`) };
      const res = await gw(`/portal/workflows/${published}/run`, { headers: withKey(who), body });
      expect(res.status).toBe(202);
      started.push(res.body.run_id as string);
    }
    const approvalRun = await gw('/v1/automations/run', { headers: withKey(a.test_key), body: { automation_id: approval, input: {} } });
    for (const id of started) runs.push(await finished(a, id));
    // The approval's task is made from a queue: wait for it to be open.
    for (let i = 0; i < 100 && ((await gw('/tasks?status=pending', { headers: withKey(a.test_key) })).body.data ?? []).length === 0; i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    runs.push((await gw(`/run/executions/${approvalRun.body.run_id as string}`, { headers: withKey(a.test_key) })).body);
    const created = await gw('/portal/dashboards', { headers: withKey(a.test_key), body: { name: 'Ops', widgets: WIDGETS } });
    expect(created.status).toBe(201);
    dashboard = created.body.id as string;
    bDashboard = (await gw('/portal/dashboards', { headers: withKey(b.test_key), body: { name: 'B', widgets: [{ type: 'failure_rate' }] } })).body.id as string;
  });

  const widget = (body: Json, type: string) => (body.widgets as Json[]).find((w) => w.type === type)!.data as unknown as Json;

  /** What the widgets must say, counted here from the executions the test made. */
  function expected(list: Json[]) {
    const byStatus = (s: string) => list.filter((r) => r.status === s).length;
    const failed = byStatus('failed') + byStatus('timed_out');
    const finishedCount = failed + byStatus('succeeded') + byStatus('cancelled');
    return { total: list.length, failed, finished: finishedCount, succeeded: byStatus('succeeded'), waiting: byStatus('waiting') };
  }

  it('computes every widget from the tenant’s own executions and tasks', async () => {
    const res = await gw(`/portal/dashboards/${dashboard}/data`, { headers: withKey(a.test_key) });
    expect(res.status).toBe(200);
    const want = expected(runs);
    const perDay = widget(res.body, 'executions_per_day');
    expect(perDay.total).toBe(want.total);
    const days = perDay.days as Json[];
    expect(days.reduce((n, d) => n + (d.succeeded as number), 0)).toBe(want.succeeded);
    expect(days.reduce((n, d) => n + (d.failed as number), 0)).toBe(want.failed);
    expect(days.reduce((n, d) => n + (d.waiting as number), 0)).toBe(want.waiting);
    expect(widget(res.body, 'failure_rate')).toEqual({
      finished: want.finished,
      failed: want.failed,
      rate: Math.round((want.failed / want.finished) * 10_000) / 10_000,
    });
    const failing = widget(res.body, 'most_failing_workflows').workflows as Json[];
    const badWorkflow = runs.find((r) => r.status === 'failed')!.workflow_id;
    expect(failing).toEqual([{ workflow_id: badWorkflow, failed: want.failed, total: runs.filter((r) => r.workflow_id === badWorkflow).length }]);
    const slowest = widget(res.body, 'slowest_workflows').workflows as Json[];
    expect(slowest.length).toBeLessThanOrEqual(2);
    expect(slowest.reduce((n, s) => n + (s.finished as number), 0)).toBe(want.finished);
    expect(widget(res.body, 'open_tasks')).toEqual({ open: 1 });
    expect((res.body.widgets as Json[]).map((w) => w.title)).toEqual([
      'Executions per day',
      'Failures',
      'Slowest workflows',
      'Most failing workflows',
      'Open tasks',
    ]);
  });

  it('narrows to one customer, and a customer key sees only its own numbers', async () => {
    const own = runs.filter((r) => r.customer_id === customer);
    const want = expected(own);
    for (const res of [
      await gw(`/portal/dashboards/${dashboard}/data?customer_id=${customer}`, { headers: withKey(a.test_key) }),
      await gw(`/portal/dashboards/${dashboard}/data`, { headers: withKey(key) }),
    ]) {
      expect(res.status).toBe(200);
      expect(res.body.customer_id).toBe(customer);
      expect(widget(res.body, 'executions_per_day').total).toBe(want.total);
      expect(widget(res.body, 'failure_rate')).toMatchObject({ finished: want.finished, failed: want.failed });
      expect(widget(res.body, 'open_tasks')).toEqual({ open: 0 });
    }
  });

  it('honours the period and validates it', async () => {
    const future = new Date(Date.now() + 86_400_000).toISOString();
    const later = new Date(Date.now() + 2 * 86_400_000).toISOString();
    const empty = await gw(`/portal/dashboards/${dashboard}/data?from=${future}&to=${later}`, { headers: withKey(a.test_key) });
    expect(widget(empty.body, 'executions_per_day')).toEqual({ days: [], total: 0 });
    const reversed = await gw(`/portal/dashboards/${dashboard}/data?from=${later}&to=${future}`, { headers: withKey(a.test_key) });
    expect(reversed.status).toBe(400);
    expect(reversed.body.details?.[0].field).toBe('from');
    expect((await gw(`/portal/dashboards/${dashboard}/data?from=yesterday`, { headers: withKey(a.test_key) })).status).toBe(400);
    const badWidget = await gw('/portal/dashboards', { headers: withKey(a.test_key), body: { name: 'x', widgets: [{ type: 'pie' }] } });
    expect(badWidget.status).toBe(400);
    expect(badWidget.body.details?.[0].field).toBe('widgets[0].type');
  });

  it('shows usage against quota with the numbers of /subscription/usage, a customer only its own', async () => {
    const made = await gw('/portal/dashboards', { headers: withKey(a.test_key), body: { name: 'Usage', widgets: [{ type: 'usage_quota' }] } });
    expect(made.status).toBe(201);
    const runsOf = (u: Json) => (u.metrics as Json[]).find((m) => m.metric === 'runs')!;
    // Usage facts are aggregated a moment after the runs start: wait until all seven are counted.
    let tenantUsage: Json = {};
    for (let i = 0; i < 100; i++) {
      tenantUsage = (await gw('/subscription/usage', { headers: withKey(a.test_key) })).body;
      if (Number(runsOf(tenantUsage).sandbox_used) >= runs.length) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(runsOf(tenantUsage).sandbox_used).toBe(runs.length);
    const usageKey = await customerKey(a, customer, ['portal:read', 'subscription:read']);
    for (const who of [a.test_key, usageKey]) {
      const data = await gw(`/portal/dashboards/${made.body.id as string}/data`, { headers: withKey(who) });
      expect(data.status).toBe(200);
      const usage = (await gw('/subscription/usage', { headers: withKey(who) })).body;
      expect(widget(data.body, 'usage_quota')).toEqual({
        plan: usage.plan,
        period_start: usage.period_start,
        period_end: usage.period_end,
        metrics: usage.metrics,
      });
    }
    const ofCustomer = widget((await gw(`/portal/dashboards/${made.body.id as string}/data`, { headers: withKey(key) })).body, 'usage_quota');
    expect(runsOf(ofCustomer).sandbox_used).toBe(3);
    expect((await gw(`/portal/dashboards/${made.body.id as string}`, { method: 'DELETE', headers: withKey(a.test_key) })).status).toBe(204);
  });

  it('manages dashboards and keeps tenants apart (404 identical to an unknown id)', async () => {
    const changed = await gw(`/portal/dashboards/${dashboard}`, { method: 'PATCH', headers: withKey(a.test_key), body: { name: 'Operations' } });
    expect(changed.body).toMatchObject({ name: 'Operations' });
    expect((changed.body.widgets as Json[]).length).toBe(WIDGETS.length);
    expect(((await gw('/portal/dashboards', { headers: withKey(a.test_key) })).body.data ?? []).map((d) => d.id)).toEqual([dashboard]);
    expect((await gw('/portal/dashboards', { headers: withKey(key), body: { name: 'x', widgets: [{ type: 'open_tasks' }] } })).status).toBe(403);
    const unknown = await gw(`/portal/dashboards/${randomUUID()}`, { headers: withKey(a.test_key) });
    for (const [method, path, body] of [
      ['GET', '', undefined],
      ['GET', '/data', undefined],
      ['PATCH', '', { name: 'hijack' }],
      ['DELETE', '', undefined],
    ] as const) {
      const foreign = await gw(`/portal/dashboards/${bDashboard}${path}`, { method, headers: withKey(a.test_key), body });
      expect(foreign.status).toBe(404);
      expect(foreign.body.message).toBe(unknown.body.message);
    }
    expect((await gw(`/portal/dashboards/${bDashboard}`, { headers: withKey(b.test_key) })).status).toBe(200);
  });
});
