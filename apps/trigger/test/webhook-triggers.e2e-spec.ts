import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { call, createTenant, e2eEnvironment, eventually, sleep, withKey, type TestTenant } from '@platform/testing';

const env = e2eEnvironment();
type Json = Record<string, unknown> & { data?: Record<string, unknown>[]; details?: { field: string }[] };
const gw = (path: string, request?: Parameters<typeof call>[2]) => call<Json>(env.gatewayUrl, path, request);

async function createWorkflow(key: string, steps: unknown[] = [{ id: 't', type: 'transform', input: { ok: true } }]): Promise<string> {
  const res = await gw('/api/v1/workflow/workflows', { headers: withKey(key), body: { name: `wf-${randomUUID().slice(0, 8)}`, steps } });
  if (res.status !== 201) throw new Error(`workflow not created: ${res.status} ${res.text}`);
  return res.body.id as string;
}

async function createWebhook(key: string, workflowId: string): Promise<Json> {
  const res = await gw('/webhooks', { headers: withKey(key), body: { name: 'hook', workflow_id: workflowId, verification: { type: 'none' } } });
  if (res.status !== 201) throw new Error(`webhook not created: ${res.status} ${res.text}`);
  return res.body;
}

const runsOf = async (key: string, workflowId: string) => (await gw(`/run/executions?workflow_id=${workflowId}`, { headers: withKey(key) })).body.data ?? [];

describe('webhook triggers, references and customer keys', () => {
  let a: TestTenant;
  let b: TestTenant;

  beforeAll(async () => {
    [a, b] = await Promise.all([createTenant(env.gatewayUrl, env.adminToken, 'hooktrig-a'), createTenant(env.gatewayUrl, env.adminToken, 'hooktrig-b')]);
  });

  it("fires a webhook trigger once per accepted delivery, with the input mapped from the request, beside the webhook's own run", async () => {
    const own = await createWorkflow(a.test_key);
    const other = await createWorkflow(a.test_key, [{ id: 'echo', type: 'transform', input: { order: '{% input.order %}' } }]);
    const hook = await createWebhook(a.test_key, own);
    const trigger = await gw('/triggers', {
      headers: withKey(a.test_key),
      body: { name: 'on-hook', workflow_id: other, type: 'webhook', webhook_id: hook.id, input: '{ "order": request.body.order }' },
    });
    expect(trigger.status).toBe(201);
    expect(trigger.body).toMatchObject({ type: 'webhook', webhook_id: hook.id, status: 'enabled' });

    const deliver = () => gw(hook.url as string, { headers: { 'webhook-id': 'msg_order_42' }, body: { order: 42 } });
    const first = await deliver();
    expect(first.status).toBe(202);
    expect((await deliver()).body).toMatchObject({ duplicate: true, delivery_id: first.body.delivery_id });

    const fired = await eventually('the trigger execution', async () => {
      const rows = (await gw(`/triggers/${trigger.body.id as string}/executions`, { headers: withKey(a.test_key) })).body.data ?? [];
      return rows.find((e) => e.status === 'started');
    });
    const run = await eventually('the triggered run to finish', async () => {
      const r = await gw(`/run/executions/${fired.run_id as string}`, { headers: withKey(a.test_key) });
      return r.body.status === 'succeeded' ? r.body : undefined;
    });
    expect(run.input).toEqual({ order: 42 });
    await sleep(1500);
    expect(await runsOf(a.test_key, other)).toHaveLength(1);
    expect(await runsOf(a.test_key, own)).toHaveLength(1);
  });

  it("refuses an unknown or another tenant's workflow or webhook with 400 naming the field, the two alike", async () => {
    const mine = await createWorkflow(a.test_key);
    const theirs = await createWorkflow(b.test_key);
    const theirHook = await createWebhook(b.test_key, theirs);
    const refusal = async (path: string, body: Record<string, unknown>, field: string) => {
      const res = await gw(path, { headers: withKey(a.test_key), body });
      expect([path, field, res.status]).toEqual([path, field, 400]);
      expect(res.body.details!.map((d) => d.field)).toEqual([field]);
      return { ...res.body, request_id: null };
    };
    const schedule = { name: 't', type: 'schedule', schedule: { cron: '0 0 1 1 *' } };
    expect(await refusal('/triggers', { ...schedule, workflow_id: theirs }, 'workflow_id')).toEqual(
      await refusal('/triggers', { ...schedule, workflow_id: randomUUID() }, 'workflow_id'),
    );
    const hookTrigger = { name: 't', type: 'webhook', workflow_id: mine };
    expect(await refusal('/triggers', { ...hookTrigger, webhook_id: theirHook.id }, 'webhook_id')).toEqual(
      await refusal('/triggers', { ...hookTrigger, webhook_id: randomUUID() }, 'webhook_id'),
    );
    const webhook = { name: 'w', verification: { type: 'none' } };
    expect(await refusal('/webhooks', { ...webhook, workflow_id: theirs }, 'workflow_id')).toEqual(
      await refusal('/webhooks', { ...webhook, workflow_id: randomUUID() }, 'workflow_id'),
    );
    // Their webhook never fires a trigger of ours, and tenant B's delivery log shows nothing of ours.
    expect((await gw(`/webhooks/${theirHook.id as string}/logs`, { headers: withKey(a.test_key) })).status).toBe(404);
  });

  it("gives a customer key its customer's triggers and webhooks only", async () => {
    const customer = await gw('/portal/customers', { headers: withKey(a.test_key), body: { name: 'Globex' } });
    expect(customer.status).toBe(201);
    const key = await gw('/account/api-keys', {
      headers: withKey(a.test_key),
      body: {
        name: 'globex',
        type: 'customer',
        customer_id: customer.body.id,
        scopes: ['triggers:read', 'triggers:write', 'webhooks:read', 'webhooks:write', 'workflows:read', 'workflows:write'],
        data_plane_id: a.sandbox_data_plane_id,
      },
    });
    expect(key.status).toBe(201);
    const customerKey = key.body.key as string;

    const tenantWorkflow = await createWorkflow(a.test_key);
    const tenantHook = await createWebhook(a.test_key, tenantWorkflow);
    const tenantTrigger = (
      await gw('/triggers', {
        headers: withKey(a.test_key),
        body: { name: 'tenant', workflow_id: tenantWorkflow, type: 'schedule', schedule: { cron: '0 0 1 1 *' } },
      })
    ).body;

    const customerWorkflow = await createWorkflow(customerKey);
    const customerHook = await createWebhook(customerKey, customerWorkflow);
    const customerTrigger = await gw('/triggers', {
      headers: withKey(customerKey),
      body: { name: 'customer', workflow_id: customerWorkflow, type: 'schedule', schedule: { cron: '0 0 1 1 *' } },
    });
    expect(customerTrigger.status).toBe(201);

    const ids = async (path: string, k: string) => ((await gw(path, { headers: withKey(k) })).body.data ?? []).map((r) => r.id);
    expect(await ids('/triggers', customerKey)).toEqual([customerTrigger.body.id]);
    expect(await ids('/webhooks', customerKey)).toEqual([customerHook.id]);
    // The tenant's key sees both.
    expect(await ids('/triggers', a.test_key)).toEqual(expect.arrayContaining([tenantTrigger.id, customerTrigger.body.id]));
    expect(await ids('/webhooks', a.test_key)).toEqual(expect.arrayContaining([tenantHook.id, customerHook.id]));

    const unknown = randomUUID();
    for (const [path, none] of [
      [`/triggers/${tenantTrigger.id as string}`, `/triggers/${unknown}`],
      [`/webhooks/${tenantHook.id as string}`, `/webhooks/${unknown}`],
      [`/webhooks/${tenantHook.id as string}/logs`, `/webhooks/${unknown}/logs`],
    ]) {
      const hidden = await gw(path, { headers: withKey(customerKey) });
      const missing = await gw(none, { headers: withKey(customerKey) });
      expect([path, hidden.status]).toEqual([path, 404]);
      expect({ ...hidden.body, request_id: null }).toEqual({ ...missing.body, request_id: null });
    }
    expect((await gw(`/triggers/${tenantTrigger.id as string}/disable`, { method: 'PUT', headers: withKey(customerKey) })).status).toBe(404);
    expect((await gw(`/webhooks/${tenantHook.id as string}`, { method: 'PATCH', headers: withKey(customerKey), body: { enabled: false } })).status).toBe(404);
    expect((await gw(`/triggers/${tenantTrigger.id as string}`, { headers: withKey(a.test_key) })).body.status).toBe('enabled');
    // Tenant-wide workflows are shared with customers (readable), so a customer's trigger may start one;
    // the trigger stays the customer's.
    const shared = await gw('/triggers', {
      headers: withKey(customerKey),
      body: { name: 'x', workflow_id: tenantWorkflow, type: 'schedule', schedule: { cron: '0 0 1 1 *' } },
    });
    expect(shared.status).toBe(201);
    expect(await ids('/triggers', customerKey)).toEqual(expect.arrayContaining([customerTrigger.body.id, shared.body.id]));
  });
});
