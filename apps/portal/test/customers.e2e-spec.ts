import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { call, createTenant, e2eEnvironment, withKey, type TestTenant } from '@platform/testing';

const env = e2eEnvironment();
type Body = Record<string, unknown> & { data?: Record<string, unknown>[] };
const gw = (path: string, request?: Parameters<typeof call>[2]) => call<Body>(env.gatewayUrl, path, request);

describe('customers and customer scopes end to end', () => {
  let a: TestTenant;
  let b: TestTenant;
  let c1: string;
  let c2: string;
  let bCustomer: string;
  let customerKey: string;

  beforeAll(async () => {
    [a, b] = await Promise.all([createTenant(env.gatewayUrl, env.adminToken, 'cust-a'), createTenant(env.gatewayUrl, env.adminToken, 'cust-b')]);
    const make = async (tenant: TestTenant, name: string, external?: string) => {
      const res = await gw('/portal/customers', { headers: withKey(tenant.test_key), body: { name, external_id: external, metadata: { tier: 'gold' } } });
      expect(res.status).toBe(201);
      return res.body.id as string;
    };
    [c1, c2, bCustomer] = await Promise.all([make(a, 'Globex', 'crm-1'), make(a, 'Initech', 'crm-2'), make(b, 'Umbrella')]);
    const key = await gw('/account/api-keys', {
      headers: withKey(a.test_key),
      body: {
        name: 'globex-key',
        type: 'customer',
        customer_id: c1,
        scopes: ['portal:read', 'portal:write', 'api_keys:manage'],
        data_plane_id: a.sandbox_data_plane_id,
      },
    });
    expect(key.status).toBe(201);
    expect(key.body).toMatchObject({ type: 'customer', customer_id: c1 });
    customerKey = key.body.key as string;
  });

  it('manages customers: list with filter, get, change, and a duplicate external id is a conflict', async () => {
    const list = await gw('/portal/customers', { headers: withKey(a.test_key) });
    expect((list.body.data ?? []).map((c) => c.id).sort()).toEqual([c1, c2].sort());
    const filtered = await gw('/portal/customers?external_id=crm-2', { headers: withKey(a.test_key) });
    expect((filtered.body.data ?? []).map((c) => c.id)).toEqual([c2]);
    const changed = await gw(`/portal/customers/${c2}`, { method: 'PATCH', headers: withKey(a.test_key), body: { name: 'Initech Ltd' } });
    expect(changed.body).toMatchObject({ id: c2, name: 'Initech Ltd', external_id: 'crm-2', metadata: { tier: 'gold' } });
    const dup = await gw('/portal/customers', { headers: withKey(a.test_key), body: { name: 'Copy', external_id: 'crm-1' } });
    expect(dup.status).toBe(409);
    const page = await gw('/portal/customers?limit=1', { headers: withKey(a.test_key) });
    expect(page.body.data).toHaveLength(1);
    const rest = await gw(`/portal/customers?limit=1&cursor=${page.body.next_cursor as string}`, { headers: withKey(a.test_key) });
    expect(rest.body.data).toHaveLength(1);
    expect(rest.body.data![0].id).not.toBe(page.body.data![0].id);
    expect((await gw('/portal/customers', { headers: withKey(a.test_key), body: { name: '' } })).status).toBe(400);
    expect((await gw('/portal/customers?cursor=garbage', { headers: withKey(a.test_key) })).status).toBe(400);
  });

  it('confines a customer key to its customer', async () => {
    const me = await gw('/account/me', { headers: withKey(customerKey) });
    expect(me.body).toMatchObject({ customer_id: c1 });
    const list = await gw('/portal/customers', { headers: withKey(customerKey) });
    expect((list.body.data ?? []).map((c) => c.id)).toEqual([c1]);
    expect((await gw(`/portal/customers/${c2}`, { headers: withKey(customerKey) })).status).toBe(404);
    expect((await gw(`/portal/customers/${c2}`, { method: 'PATCH', headers: withKey(customerKey), body: { name: 'hijack' } })).status).toBe(404);
    expect((await gw('/portal/customers', { headers: withKey(customerKey), body: { name: 'New' } })).status).toBe(403);
    // X-Scope-Key of another customer is refused; its own is fine.
    expect((await gw('/portal/customers', { headers: withKey(customerKey, { 'x-scope-key': c2 }) })).status).toBe(403);
    expect((await gw('/portal/customers', { headers: withKey(customerKey, { 'x-scope-key': c1 }) })).status).toBe(200);
    // Its key management sees only its own customer's keys, and cannot mint tenant keys.
    const keys = await gw('/account/api-keys', { headers: withKey(customerKey) });
    expect((keys.body.data ?? []).every((k) => k.customer_id === c1)).toBe(true);
    const tenantKey = await gw('/account/api-keys', {
      headers: withKey(customerKey),
      body: { name: 'x', type: 'tenant', scopes: ['portal:read'], data_plane_id: a.sandbox_data_plane_id },
    });
    expect(tenantKey.status).toBe(403);
  });

  it('narrows a tenant key with X-Scope-Key, and refuses a foreign or unknown scope', async () => {
    const narrowed = await gw('/portal/customers', { headers: withKey(a.test_key, { 'x-scope-key': c2 }) });
    expect((narrowed.body.data ?? []).map((c) => c.id)).toEqual([c2]);
    for (const scope of [bCustomer, randomUUID(), 'nope']) {
      const res = await gw('/portal/customers', { headers: withKey(a.test_key, { 'x-scope-key': scope }) });
      expect(res.status).toBe(403);
    }
  });

  it("hides tenant A's customers from tenant B", async () => {
    expect((await gw(`/portal/customers/${c1}`, { headers: withKey(b.test_key) })).status).toBe(404);
    expect((await gw(`/portal/customers/${c1}`, { method: 'DELETE', headers: withKey(b.test_key) })).status).toBe(404);
    const list = await gw('/portal/customers', { headers: withKey(b.test_key) });
    expect((list.body.data ?? []).map((c) => c.id)).toEqual([bCustomer]);
    // A's live key (production) sees none of A's sandbox customers either.
    expect((await gw('/portal/customers', { headers: withKey(a.live_key) })).body.data).toEqual([]);
  });

  it('deleting a customer revokes its keys everywhere (a rotated one in its grace period too), keeps their records, then deletes it', async () => {
    const tenant = withKey(a.test_key);
    const issue = async (name: string) => {
      const res = await gw('/account/api-keys', {
        headers: tenant,
        body: { name, type: 'customer', customer_id: c1, scopes: ['portal:read'], data_plane_id: a.sandbox_data_plane_id },
      });
      expect(res.status).toBe(201);
      return res.body as Body & { id: string; key: string };
    };
    const spare = await issue('globex-spare');
    const rotating = await issue('globex-rotating');
    const rotated = await gw(`/account/api-keys/${rotating.id}/rotate`, { headers: tenant, body: { transition_period_seconds: 3600 } });
    expect(rotated.status).toBe(201);
    const successor = rotated.body as Body & { id: string; key: string };
    const keys = [customerKey, spare.key, rotating.key, successor.key];
    // Every key works in several services first (so their verifications are cached there).
    const paths = ['/account/me', '/portal/customers', '/catalog/connectors', '/kb/knowledge-bases'];
    for (const key of keys) for (const path of paths) expect((await gw(path, { headers: withKey(key) })).status).not.toBe(401);

    expect((await gw(`/portal/customers/${c1}`, { method: 'DELETE', headers: tenant })).status).toBe(204);
    expect((await gw(`/portal/customers/${c1}`, { headers: tenant })).status).toBe(404);
    for (const key of keys)
      for (const path of paths) expect([key.slice(0, 12), path, (await gw(path, { headers: withKey(key) })).status]).toEqual([key.slice(0, 12), path, 401]);

    // The records stay, revoked, and the customer's keys can still be listed by its id.
    const listed = await gw(`/account/api-keys?customer_id=${c1}&limit=200`, { headers: tenant });
    expect(listed.status).toBe(200);
    const states: Record<string, unknown> = Object.fromEntries((listed.body.data ?? []).map((k) => [k.id as string, k.status]));
    for (const id of [spare.id, rotating.id, successor.id]) expect(states[id]).toBe('revoked');
    expect(Object.values(states).every((s) => s === 'revoked')).toBe(true);
    // A new key for the deleted customer is refused like one for an unknown customer.
    const again = await gw('/account/api-keys', {
      headers: tenant,
      body: { name: 'late', type: 'customer', customer_id: c1, scopes: ['portal:read'], data_plane_id: a.sandbox_data_plane_id },
    });
    expect(again.status).toBe(400);
    // Another tenant's customer is not found, and a customer that never had a key is deleted as before.
    expect((await gw(`/portal/customers/${c2}`, { method: 'DELETE', headers: withKey(b.test_key) })).status).toBe(404);
    const other = await gw('/portal/customers', { headers: tenant, body: { name: 'Spare' } });
    expect((await gw(`/portal/customers/${other.body.id as string}`, { method: 'DELETE', headers: tenant })).status).toBe(204);
    expect((await gw(`/portal/customers/${c2}`, { headers: tenant })).status).toBe(200);
  });
});
