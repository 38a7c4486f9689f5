import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { NatsConnection } from '@nats-io/transport-node';
import {
  SubscriptionSubjects,
  USAGE_BATCHES_QUEUE,
  USAGE_FACTS_QUEUE,
  configureNamespace,
  connectNats,
  enqueueWork,
  ensureWorkQueue,
  messageContext,
  type UsageFact,
} from '@platform/messaging';
import { createTenant, eventually, withKey, type TestTenant } from '@platform/testing';
import { env, gw, usageOf } from './support.js';

const fact = (metric: UsageFact['metric'], quantity: number, keyMode?: 'live' | 'test'): UsageFact => ({
  eventId: randomUUID(),
  metric,
  quantity,
  occurredAt: new Date().toISOString(),
  ...(keyMode ? { keyMode } : {}),
});

describe('usage metering', () => {
  let publishers: NatsConnection[];
  let tenant: TestTenant;
  let other: TestTenant;
  const production = () => ({ tenantId: tenant.tenant_id, environmentId: tenant.production_data_plane_id });
  const usage = (key: string, query = '') => gw(`/subscription/usage${query}`, { headers: withKey(key) });

  beforeAll(async () => {
    configureNamespace(env.serviceEnv.subscription.NATS_NAMESPACE ?? '');
    const url = env.serviceEnv.subscription.NATS_URL ?? process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
    publishers = await Promise.all([connectNats({ url, name: 'usage-e2e-1' }), connectNats({ url, name: 'usage-e2e-2' })]);
    await ensureWorkQueue(publishers[0], USAGE_FACTS_QUEUE);
    await ensureWorkQueue(publishers[0], USAGE_BATCHES_QUEUE);
    [tenant, other] = await Promise.all([createTenant(env.gatewayUrl, env.adminToken, 'usage-a'), createTenant(env.gatewayUrl, env.adminToken, 'usage-b')]);
  });

  afterAll(async () => {
    await Promise.all((publishers ?? []).map((nc) => nc.close()));
  });

  const publish = (nc: NatsConnection, f: UsageFact, scopeId: string | null = null, msgId = f.eventId) =>
    enqueueWork(nc, SubscriptionSubjects.usageRecorded, f, msgId, messageContext({ ...production(), scopeId }));

  it('counts a replayed event once, even past the stream duplicate window', async () => {
    const once = fact('notifications', 7);
    await publish(publishers[0], once);
    // Another message id: JetStream does not drop it, so the subscription service must.
    await publish(publishers[1], once, null, `${once.eventId}-replayed`);
    await publish(publishers[0], fact('notifications', 1, 'test'));
    const body = await eventually('the facts are aggregated', async () => {
      const res = await usage(tenant.live_key);
      const n = usageOf(res.body, 'notifications');
      return n.used === 7 && n.sandbox_used === 1 ? res.body : undefined;
    });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(usageOf((await usage(tenant.live_key)).body, 'notifications')).toMatchObject({ used: 7, sandbox_used: 1, limit: 1000 });
    expect(body).toMatchObject({ plan: 'free', customer_id: null });
  });

  it('gives exact totals for 10,000 events from two publishers, replays included', async () => {
    const facts = Array.from({ length: 10_000 }, (_, i) => fact('ai_tokens', (i % 97) + 1));
    const expected = facts.reduce((sum, f) => sum + f.quantity, 0);
    const halves = [facts.slice(0, 5_000), facts.slice(5_000)];
    await Promise.all(
      halves.map(async (half, p) => {
        for (let i = 0; i < half.length; i += 250) await Promise.all(half.slice(i, i + 250).map((f) => publish(publishers[p], f)));
      }),
    );
    // Every 50th fact replayed by the other publisher.
    await Promise.all(facts.filter((_, i) => i % 50 === 0).map((f, i) => publish(publishers[i % 2], f, null, `${f.eventId}-again`)));
    await eventually(
      'all 10,000 facts are aggregated',
      async () => (usageOf((await usage(tenant.live_key)).body, 'ai_tokens').used === expected ? true : undefined),
      120_000,
      500,
    );
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const res = await usage(tenant.live_key, '?granularity=day');
    expect(usageOf(res.body, 'ai_tokens').used).toBe(expected);
    const today = new Date().toISOString().slice(0, 10);
    const daily = (res.body.daily as { date: string; metric: string; quantity: number }[]).filter((d) => d.metric === 'ai_tokens');
    expect(daily).toEqual([{ date: today, metric: 'ai_tokens', quantity: expected }]);
  }, 180_000);

  it("counts each fact of a batch once: a batch redelivered, and a fact that also came alone (the outbox relay's way), add nothing twice; the batch is its tenant's only", async () => {
    const mine = await createTenant(env.gatewayUrl, env.adminToken, 'usage-batch');
    const ctx = messageContext({ tenantId: mine.tenant_id, environmentId: mine.production_data_plane_id });
    const facts = [fact('ai_tokens', 5), fact('ai_tokens', 6), fact('ai_tokens', 7, 'test')];
    const batch = (msgId: string) => enqueueWork(publishers[0], SubscriptionSubjects.usageBatched, { facts }, msgId, ctx);
    await batch(randomUUID());
    // The same batch under another message id (JetStream keeps it), and one of its facts alone.
    await batch(randomUUID());
    await enqueueWork(publishers[1], SubscriptionSubjects.usageRecorded, facts[0], `${facts[0].eventId}-alone`, ctx);
    await eventually('the batch is aggregated', async () => {
      const tokens = usageOf((await usage(mine.live_key)).body, 'ai_tokens');
      return tokens.used === 11 && tokens.sandbox_used === 7 ? true : undefined;
    });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(usageOf((await usage(mine.live_key)).body, 'ai_tokens')).toMatchObject({ used: 11, sandbox_used: 7 });
    expect(usageOf((await usage(other.live_key)).body, 'ai_tokens')).toMatchObject({ used: 0, sandbox_used: 0 });
  });

  it("keeps a tenant's usage to itself, and a customer key to its customer's", async () => {
    const customer = await gw('/portal/customers', { method: 'POST', headers: withKey(tenant.live_key), body: { name: 'Acme' } });
    expect(customer.status).toBe(201);
    const created = await gw('/account/api-keys', {
      method: 'POST',
      headers: withKey(tenant.live_key),
      body: { name: 'acme', type: 'customer', customer_id: customer.body.id, scopes: ['subscription:read'], data_plane_id: tenant.production_data_plane_id },
    });
    expect(created.status).toBe(201);
    const customerKey = created.body.key as string;
    await publish(publishers[0], fact('runs', 3), customer.body.id as string);
    await publish(publishers[0], fact('runs', 4));
    await eventually('the runs are aggregated', async () => (usageOf((await usage(tenant.live_key)).body, 'runs').used === 7 ? true : undefined));

    const own = await usage(customerKey);
    expect(own.status).toBe(200);
    expect(own.body.customer_id).toBe(customer.body.id);
    expect(usageOf(own.body, 'runs').used).toBe(3);
    expect(usageOf(own.body, 'ai_tokens').used).toBe(0);
    expect(usageOf((await usage(tenant.live_key, `?customer_id=${customer.body.id as string}`)).body, 'runs').used).toBe(3);
    expect((await usage(customerKey, `?customer_id=${randomUUID()}`)).status).toBe(403);
    // Billing is the tenant's: a customer key reads neither the subscription nor invoices.
    expect((await gw('/subscription/current', { headers: withKey(customerKey) })).status).toBe(403);
    expect((await gw('/subscription/invoices', { headers: withKey(customerKey) })).status).toBe(403);

    const theirs = await usage(other.live_key);
    for (const metric of ['runs', 'ai_tokens', 'notifications']) expect(usageOf(theirs.body, metric).used).toBe(0);
    // Tenant A's customer is to tenant B just an id with no usage, answered exactly like an unknown one.
    const foreign = await usage(other.live_key, `?customer_id=${customer.body.id as string}`);
    const unknown = await usage(other.live_key, `?customer_id=${randomUUID()}`);
    expect((foreign.body.metrics as { used: number }[]).every((m) => m.used === 0)).toBe(true);
    expect(foreign.body.metrics).toEqual(unknown.body.metrics);
  });

  it('meters what the services report: the owner seat, bytes stored and freed, workflows made and deleted', async () => {
    const third = await createTenant(env.gatewayUrl, env.adminToken, 'usage-c');
    const form = new FormData();
    form.append('file', new Blob(['x'.repeat(1234)], { type: 'text/plain' }), 'meter.txt');
    const uploaded = await fetch(`${env.gatewayUrl}/storage/files/upload`, { method: 'POST', headers: { 'x-api-key': third.live_key }, body: form });
    expect(uploaded.status).toBe(201);
    const file = (await uploaded.json()) as { id: string };
    const wf = await gw('/api/v1/workflow/workflows', {
      method: 'POST',
      headers: withKey(third.live_key),
      body: { name: 'm', steps: [{ id: 'a', type: 'transform', input: {} }] },
    });
    expect(wf.status).toBe(201);
    const levels = async () => {
      const body = (await usage(third.live_key)).body;
      return ['seats', 'storage_bytes', 'active_workflows'].map((metric) => usageOf(body, metric).used);
    };
    await eventually('the facts are counted', async () => ((await levels()).join() === '1,1234,1' ? true : undefined));
    expect((await gw(`/storage/files/${file.id}`, { method: 'DELETE', headers: withKey(third.live_key) })).status).toBe(204);
    expect((await gw(`/api/v1/workflow/workflows/${wf.body.id as string}`, { method: 'DELETE', headers: withKey(third.live_key) })).status).toBe(204);
    await eventually('the freed bytes and deleted workflow are counted', async () => ((await levels()).join() === '1,0,0' ? true : undefined));
  });

  it('refuses bad queries with 400 naming the field', async () => {
    const res = await usage(tenant.live_key, '?granularity=hour&customer_id=nope');
    expect(res.status).toBe(400);
    const fields = (res.body.details as { field: string }[]).map((d) => d.field).sort();
    expect(fields).toEqual(['customer_id', 'granularity']);
  });
});
