import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { call, createTenant, e2eEnvironment, eventually, withKey, type TestTenant } from '@platform/testing';

const env = e2eEnvironment();
type Json = Record<string, unknown>;
const gw = (path: string, request?: Parameters<typeof call>[2]) => call<Json>(env.gatewayUrl, path, request);

/**
 * Runs that no key starts (a webhook's delivery, a schedule's tick, an event) carry no key mode:
 * they are metered by their data plane, so the sandbox's runs are sandbox usage, never billable.
 */
describe('runs started without a key are metered by their data plane', () => {
  let a: TestTenant;
  let other: TestTenant;

  beforeAll(async () => {
    [a, other] = await Promise.all([createTenant(env.gatewayUrl, env.adminToken, 'keyless-a'), createTenant(env.gatewayUrl, env.adminToken, 'keyless-b')]);
  });

  /** A webhook on `key`'s data plane, delivered to once: its run has no key behind it. */
  async function deliverOnce(key: string): Promise<void> {
    const workflow = await gw('/api/v1/workflow/workflows', {
      headers: withKey(key),
      body: { name: `wf-${randomUUID().slice(0, 8)}`, steps: [{ id: 't', type: 'transform', input: { ok: true } }] },
    });
    expect(workflow.status).toBe(201);
    const hook = await gw('/webhooks', { headers: withKey(key), body: { name: 'hook', workflow_id: workflow.body.id, verification: { type: 'none' } } });
    expect(hook.status).toBe(201);
    expect((await gw(hook.body.url as string, { body: { order: 1 } })).status).toBe(202);
  }

  const runs = async (key: string) => ((await gw('/subscription/usage', { headers: withKey(key) })).body.metrics as Json[]).find((m) => m.metric === 'runs')!;

  it('counts a sandbox webhook run as sandbox usage and a live one as billable', async () => {
    await deliverOnce(a.test_key);
    await deliverOnce(a.live_key);
    const counted = await eventually(
      'both webhook runs metered',
      async () => {
        const metric = await runs(a.live_key);
        return Number(metric.used) + Number(metric.sandbox_used) >= 2 ? metric : undefined;
      },
      20_000,
    );
    expect(counted).toMatchObject({ used: 1, sandbox_used: 1 });
    // Another tenant's usage holds none of it.
    expect(await runs(other.live_key)).toMatchObject({ used: 0, sandbox_used: 0 });
  });
});
