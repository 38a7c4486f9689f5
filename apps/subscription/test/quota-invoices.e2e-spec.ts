import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { call, createTenant, eventually, sleep, withKey, type ManagedProcess, type TestTenant } from '@platform/testing';
import { addPlan, choosePlan, env, gw, startSubscriptionReplica, usageOf, type Json } from './support.js';

const PLAN = `runs3-${randomBytes(3).toString('hex')}`;
const RUNS = { included: 3, limit: 3, unit_price_minor: 0, per: 1 };
const WORKFLOWS = { included: 0, limit: null, unit_price_minor: 25, per: 1 };

describe('quotas and invoices', () => {
  let tenant: TestTenant;
  let other: TestTenant;
  let workflowId: string;
  let sandboxWorkflowId: string;
  let replica: { url: string; process: ManagedProcess } | undefined;
  const start = (key: string, automation = workflowId) =>
    gw('/v1/automations/run', { method: 'POST', headers: withKey(key), body: { automation_id: automation, input: {} } });

  beforeAll(async () => {
    await addPlan({ code: PLAN, base_price_minor: 1500, quotas: { runs: RUNS, active_workflows: WORKFLOWS } });
    [tenant, other] = await Promise.all([createTenant(env.gatewayUrl, env.adminToken, 'quota-a'), createTenant(env.gatewayUrl, env.adminToken, 'quota-b')]);
    await choosePlan(tenant, PLAN);
    const wf = await gw('/api/v1/workflow/workflows', {
      method: 'POST',
      headers: withKey(tenant.live_key),
      body: { name: 'quota', steps: [{ id: 'a', type: 'transform', input: { v: 1 } }] },
    });
    expect(wf.status).toBe(201);
    workflowId = wf.body.id as string;
    const sandbox = await gw('/api/v1/workflow/workflows', {
      method: 'POST',
      headers: withKey(tenant.test_key),
      body: { name: 'quota', steps: [{ id: 'a', type: 'transform', input: { v: 1 } }] },
    });
    sandboxWorkflowId = sandbox.body.id as string;
    replica = await startSubscriptionReplica();
  }, 60_000);

  afterAll(async () => {
    await replica?.process.stop();
  });

  it('refuses runs past the quota to a live key with 429 naming it, not to a test key, and counts every run started', async () => {
    for (let i = 0; i < 3; i++) expect((await start(tenant.live_key)).status).toBe(202);
    const body = await eventually('the three runs are metered', async () => {
      const res = await gw('/subscription/usage', { headers: withKey(tenant.live_key) });
      return usageOf(res.body, 'runs').used === 3 ? res.body : undefined;
    });
    const periodEnd = Date.parse(body.period_end as string);
    // The gateway hears of the used-up quota within moments (an event, no lookup per request). It is
    // probed with a start the run service would refuse (400, no run), so the probe itself starts nothing.
    await eventually(
      'the gateway applies the used-up quota',
      async () => {
        const probe = await gw('/v1/automations/run', { method: 'POST', headers: withKey(tenant.live_key), body: { input: {} } });
        return probe.status === 429 ? probe : undefined;
      },
      10_000,
      100,
    );
    const refused = await start(tenant.live_key);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      error: 'Too Many Requests',
      code: 'rate_limited',
      message: `Quota exceeded: runs (3 per billing period) is used up until ${new Date(periodEnd).toISOString()}`,
      status: 429,
      request_id: refused.headers.get('x-request-id'),
    });
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(Math.ceil((periodEnd - Date.now()) / 1000) + 1);
    expect(refused.headers.get('x-ratelimit-limit')).toBe('10000');

    // Test keys work on sandbox data: not held against quotas.
    expect((await start(tenant.test_key, sandboxWorkflowId)).status).toBe(202);
    // Another tenant on the free plan is not affected.
    const otherWf = await gw('/api/v1/workflow/workflows', {
      method: 'POST',
      headers: withKey(other.live_key),
      body: { name: 'q', steps: [{ id: 'a', type: 'transform', input: {} }] },
    });
    expect(
      (await gw('/v1/automations/run', { method: 'POST', headers: withKey(other.live_key), body: { automation_id: otherWf.body.id, input: {} } })).status,
    ).toBe(202);

    const after = await eventually('the test run is metered apart', async () => {
      const res = await gw('/subscription/usage', { headers: withKey(tenant.live_key) });
      return usageOf(res.body, 'runs').sandbox_used === 1 ? res.body : undefined;
    });
    expect(usageOf(after, 'runs')).toMatchObject({ used: 3, limit: 3, remaining: 0 });
    expect(usageOf(after, 'active_workflows')).toMatchObject({ used: 1, sandbox_used: 1 });
  }, 60_000);

  it('issues exactly one invoice when two replicas reach the period end together, with lines from the usage, and frees the quota', async () => {
    const admin = { authorization: `Bearer ${env.adminToken}` };
    const ended = await gw('/subscription/system/billing/end-period', { method: 'POST', headers: admin, body: { tenant_id: tenant.tenant_id } });
    expect(ended.status).toBe(200);
    const urls = [env.serviceUrls.subscription, replica!.url];
    const passes = await Promise.all(
      [...urls, ...urls].map((url) => call<{ issued: number }>(url, '/subscription/system/billing/run', { method: 'POST', headers: admin })),
    );
    expect(passes.map((p) => p.status)).toEqual([200, 200, 200, 200]);
    // The platform's own billing job may also have taken it: at most one invoice in all.
    expect(passes.reduce((sum, p) => sum + p.body.issued, 0)).toBeLessThanOrEqual(1);

    const list = await gw('/subscription/invoices', { headers: withKey(tenant.live_key) });
    expect(list.status).toBe(200);
    const invoices = list.body.data as Json[];
    expect(invoices).toHaveLength(1);
    const invoice = invoices[0];
    expect(invoice).toMatchObject({
      plan: PLAN,
      currency: 'EUR',
      status: 'issued',
      period_end: ended.body.period_end,
      subtotal_minor: 1500 + 25,
      total_minor: 1500 + 25,
    });
    const lines = invoice.lines as { item: string; used: number; amount_minor: number }[];
    expect(lines.find((l) => l.item === 'runs')).toMatchObject({ used: 3, amount_minor: 0 });
    expect(lines.find((l) => l.item === 'base')).toMatchObject({ amount_minor: 1500 });
    // One live workflow (the sandbox one is not billed), priced beyond 0 included.
    expect(lines.find((l) => l.item === 'active_workflows')).toMatchObject({ used: 1, amount_minor: 25 });
    expect((await gw(`/subscription/invoices/${invoice.id as string}`, { headers: withKey(tenant.live_key) })).body).toEqual(invoice);

    // Another run of the passes changes nothing: the period is closed, its invoice final.
    await Promise.all(urls.map((url) => call(url, '/subscription/system/billing/run', { method: 'POST', headers: admin })));
    expect(((await gw('/subscription/invoices', { headers: withKey(tenant.live_key) })).body.data as Json[]).map((i) => i.id)).toEqual([invoice.id]);

    // Issued means final: the database itself refuses to change or delete it, whoever asks.
    const client = new pg.Client({ connectionString: env.databaseUrl });
    await client.connect();
    try {
      for (const sql of ['update subscription.invoices set total_minor = 0 where id = $1', 'delete from subscription.invoices where id = $1']) {
        await expect(client.query(sql, [invoice.id])).rejects.toThrow('an issued invoice never changes');
      }
    } finally {
      await client.end();
    }

    // The new period starts with the runs quota free again.
    const current = await gw('/subscription/current', { headers: withKey(tenant.live_key) });
    expect(current.body.period_start).toBe(ended.body.period_end);
    await eventually('the gateway lets runs through again', async () => ((await start(tenant.live_key)).status === 202 ? true : undefined), 20_000, 200);

    // Isolation: another tenant sees none of it, and an invoice id of tenant A is unknown to it.
    expect((await gw('/subscription/invoices', { headers: withKey(other.live_key) })).body.data).toEqual([]);
    const foreign = await gw(`/subscription/invoices/${invoice.id as string}`, { headers: withKey(other.live_key) });
    expect(foreign.status).toBe(404);
    expect((await gw('/subscription/current', { headers: withKey(other.live_key) })).body.plan).toBe('free');
  }, 60_000);

  it('records plan changes and refuses an unknown plan with 400 naming the field', async () => {
    const bad = await gw('/subscription/current', { method: 'PUT', headers: withKey(other.live_key), body: { plan: 'no-such-plan' } });
    expect(bad.status).toBe(400);
    expect((bad.body.details as { field: string }[])[0].field).toBe('plan');
    const extra = await gw('/subscription/current', { method: 'PUT', headers: withKey(other.live_key), body: { plan: 'pro', price: 0 } });
    expect(extra.status).toBe(400);
    const changed = await gw('/subscription/current', { method: 'PUT', headers: withKey(other.live_key), body: { plan: 'pro' } });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ plan: 'pro', plan_name: 'Pro', currency: 'USD', status: 'active' });
    expect((await gw('/subscription/current', { method: 'PUT', headers: withKey(other.live_key), body: { plan: 'pro' } })).status).toBe(409);
    const changes = await gw('/subscription/changes', { headers: withKey(other.live_key) });
    expect(changes.status).toBe(200);
    expect(changes.body.data).toEqual([
      { id: expect.any(String), from_plan: 'free', to_plan: 'pro', actor: expect.stringMatching(/^tenant_key:/), changed_at: expect.any(String) },
    ]);
    expect(((await gw('/subscription/changes', { headers: withKey(tenant.live_key) })).body.data as Json[]).map((c) => c.to_plan)).toEqual([PLAN]);
    const plans = await gw('/subscription/plans', { headers: withKey(other.live_key) });
    expect((plans.body.data as { code: string }[]).map((p) => p.code)).toEqual(expect.arrayContaining(['free', 'pro', 'enterprise', PLAN]));
    await sleep(0);
  });

  it('retries billing for a tenant through the gateway to a platform admin only: a tenant key is refused, bad input is 400, an unknown tenant 404, a closed period writes nothing', async () => {
    const admin = { authorization: `Bearer ${env.adminToken}` };
    const retry = (headers: Record<string, string>, body: unknown) => gw('/subscription/system/billing/retry', { method: 'POST', headers, body });
    const before = ((await gw('/subscription/invoices', { headers: withKey(tenant.live_key) })).body.data as Json[]).map((i) => i.id);
    for (const key of [tenant.live_key, other.live_key]) expect([401, 403]).toContain((await retry(withKey(key), { tenant_id: tenant.tenant_id })).status);
    const bad = await retry(admin, { tenant_id: 'not-a-uuid' });
    expect(bad.status).toBe(400);
    expect((bad.body.details as { field: string }[])[0].field).toBe('tenant_id');
    expect((await retry(admin, { tenant_id: '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8f01' })).status).toBe(404);
    const again = await retry(admin, { tenant_id: tenant.tenant_id });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ invoice_id: null });
    expect(((await gw('/subscription/invoices', { headers: withKey(tenant.live_key) })).body.data as Json[]).map((i) => i.id)).toEqual(before);
  });
});
