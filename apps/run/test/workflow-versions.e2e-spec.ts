import { beforeAll, describe, expect, it } from '@jest/globals';
import { createTenant, withKey, type TestTenant } from '@platform/testing';
import { createWorkflow, env, gw } from './engine-helpers.js';

describe('workflow versions', () => {
  let a: TestTenant;
  let b: TestTenant;

  beforeAll(async () => {
    [a, b] = await Promise.all([createTenant(env.gatewayUrl, env.adminToken, 'versions-a'), createTenant(env.gatewayUrl, env.adminToken, 'versions-b')]);
  });

  it("keeps each version as it was saved: ?version=n shows that version's name, description and status", async () => {
    const id = await createWorkflow(a, [{ id: 'v', type: 'transform' }], { name: 'first name', description: 'first' });
    const patched = await gw(`/run/workflows/${id}`, {
      method: 'PATCH',
      headers: withKey(a.test_key),
      body: { name: 'second name', description: null, status: 'disabled' },
    });
    expect(patched.body).toMatchObject({ version: 2, name: 'second name', description: null, status: 'disabled' });
    const v1 = await gw(`/run/workflows/${id}?version=1`, { headers: withKey(a.test_key) });
    expect(v1.body).toMatchObject({ id, version: 1, name: 'first name', description: 'first', status: 'active' });
    const current = await gw(`/run/workflows/${id}`, { headers: withKey(a.test_key) });
    expect(current.body).toMatchObject({ version: 2, name: 'second name', description: null, status: 'disabled' });
    // Another tenant can read neither version.
    expect((await gw(`/run/workflows/${id}?version=1`, { headers: withKey(b.test_key) })).status).toBe(404);
    expect((await gw(`/run/workflows/${id}`, { headers: withKey(b.test_key) })).status).toBe(404);
  });
});
