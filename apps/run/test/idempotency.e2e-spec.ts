import { beforeAll, describe, expect, it } from '@jest/globals';
import { createTenant, withKey, type TestTenant } from '@platform/testing';
import { createWorkflow, env, gw } from './engine-helpers.js';

/** Idempotency-Key under concurrency, and as the caller's own (per customer scope). */
describe('run starts with an Idempotency-Key', () => {
  let a: TestTenant;
  let workflow: string;

  beforeAll(async () => {
    a = await createTenant(env.gatewayUrl, env.adminToken, 'idem');
    workflow = await createWorkflow(a, [{ id: 't', type: 'transform', input: { x: '{% input.x %}' } }]);
  });

  const send = (key: string, apiKey: string, x = 1) =>
    gw('/v1/automations/run', { headers: withKey(apiKey, { 'idempotency-key': key }), body: { automation_id: workflow, input: { x } } });

  it('gives twenty concurrent starts with one key one run, and never a 500', async () => {
    const answers = await Promise.all(Array.from({ length: 20 }, () => send(`burst-${workflow}`, a.test_key)));
    expect(answers.map((r) => r.status).filter((s) => s !== 202)).toEqual([]);
    expect(new Set(answers.map((r) => r.body.run_id)).size).toBe(1);
    const listed = await gw(`/run/executions?workflow_id=${workflow}&limit=200`, { headers: withKey(a.test_key) });
    expect(listed.body.data?.length).toBe(1);
  });

  it("keeps one customer's key apart from another's and from the tenant's", async () => {
    const customerKey = async (name: string) => {
      const customer = await gw('/portal/customers', { headers: withKey(a.test_key), body: { name } });
      const key = await gw('/account/api-keys', {
        headers: withKey(a.test_key),
        body: {
          name: `${name}-key`,
          type: 'customer',
          customer_id: customer.body.id,
          scopes: ['automations:run', 'executions:read'],
          data_plane_id: a.sandbox_data_plane_id,
        },
      });
      expect(key.status).toBe(201);
      return key.body.key as string;
    };
    const [one, two] = [await customerKey('idem-one'), await customerKey('idem-two')];
    const answers = [await send('shared-key', one), await send('shared-key', two), await send('shared-key', a.test_key)];
    expect(answers.map((r) => r.status)).toEqual([202, 202, 202]);
    expect(new Set(answers.map((r) => r.body.run_id)).size).toBe(3);
    // A repeat within one scope still answers that scope's first run.
    expect((await send('shared-key', two)).body.run_id).toBe(answers[1].body.run_id);
  });
});
