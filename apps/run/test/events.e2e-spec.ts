import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { NatsConnection } from '@nats-io/transport-node';
import { Bus, RunSubjects, configureNamespace, connectNats, type ExecutionStatusEvent } from '@platform/messaging';
import { createTenant, withKey, type TestTenant } from '@platform/testing';
import { createWorkflow, env, gw, start, waitFor } from './engine-helpers.js';

describe('execution status events on NATS', () => {
  let tenant: TestTenant;
  let nc: NatsConnection;
  const seen: { subject: string; event: ExecutionStatusEvent; tenantId?: string }[] = [];

  beforeAll(async () => {
    tenant = await createTenant(env.gatewayUrl, env.adminToken, 'events');
    configureNamespace(env.serviceEnv.run.NATS_NAMESPACE);
    nc = await connectNats({ url: 'nats://127.0.0.1:4222', name: 'events-e2e' });
    const bus = new Bus(nc);
    for (const subject of [RunSubjects.executionStarted, RunSubjects.executionCompleted, RunSubjects.executionFailed, RunSubjects.executionCancelled]) {
      bus.subscribeAll(subject, (envelope) => seen.push({ subject, event: envelope.data, tenantId: envelope.context.tenantId }));
    }
    await nc.flush();
  });

  afterAll(async () => {
    await nc?.close();
  });

  const eventsOf = async (runId: string, count: number) => {
    for (let i = 0; i < 100 && seen.filter((s) => s.event.executionId === runId).length < count; i++) await new Promise((r) => setTimeout(r, 50));
    return seen.filter((s) => s.event.executionId === runId).map((s) => [s.subject, s.event.status, s.tenantId]);
  };

  it('announces started and completed, failed, and cancelled, with the tenant in the envelope', async () => {
    const ok = await start(tenant, await createWorkflow(tenant, [{ id: 't', type: 'transform', input: {} }]));
    await waitFor(tenant, ok);
    expect(await eventsOf(ok, 2)).toEqual([
      ['run.execution.started', 'running', tenant.tenant_id],
      ['run.execution.completed', 'succeeded', tenant.tenant_id],
    ]);
    const bad = await start(tenant, await createWorkflow(tenant, [{ id: 'f', type: 'fail', input: { message: 'no' } }]));
    await waitFor(tenant, bad);
    expect((await eventsOf(bad, 2))[1]).toEqual(['run.execution.failed', 'failed', tenant.tenant_id]);
    const waiting = await start(tenant, await createWorkflow(tenant, [{ id: 'd', type: 'delay', input: { seconds: 60 } }]));
    await waitFor(tenant, waiting, ['waiting']);
    await gw(`/run/executions/${waiting}/cancel`, { method: 'POST', headers: withKey(tenant.test_key) });
    expect((await eventsOf(waiting, 2))[1]).toEqual(['run.execution.cancelled', 'cancelled', tenant.tenant_id]);
  });
});
