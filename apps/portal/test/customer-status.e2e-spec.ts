import { beforeAll, describe, expect, it } from '@jest/globals';
import { eventually, withKey, type TestTenant } from '@platform/testing';
import { createCustomer, createWorkflow, customerKey, ECHO_STEPS, gw, NAME_FORM, publish, tenant } from './portal-helpers.js';

describe('disabling a customer', () => {
  let a: TestTenant;
  let customer: string;
  let other: string;
  let key: string;
  let published: string;
  let embedUrl: string;

  beforeAll(async () => {
    a = await tenant('status-a');
    [customer, other] = await Promise.all([createCustomer(a, 'Globex Corporation'), createCustomer(a, 'Initech')]);
    key = await customerKey(a, customer);
    published = await publish(a, await createWorkflow(a, ECHO_STEPS, NAME_FORM), 'all_customers');
    const embed = await gw('/portal/embed', {
      headers: withKey(a.test_key),
      body: { kind: 'form', target_id: published, customer_id: customer, allowed_origins: [] },
    });
    embedUrl = embed.body.url as string;
    expect((await gw('/portal/workflows', { headers: withKey(key) })).status).toBe(200);
  });

  it("lists the customer's own keys with it", async () => {
    const keys = await gw(`/account/api-keys?customer_id=${customer}`, { headers: withKey(a.test_key) });
    expect(keys.status).toBe(200);
    expect((keys.body.data ?? []).map((k) => k.customer_id)).toEqual([customer]);
    expect(((await gw(`/account/api-keys?customer_id=${other}`, { headers: withKey(a.test_key) })).body.data ?? []).length).toBe(0);
  });

  it('refuses its keys, its scope and its embed tokens at once, and restores them when enabled again', async () => {
    const disabled = await gw(`/portal/customers/${customer}`, { method: 'PATCH', headers: withKey(a.test_key), body: { status: 'disabled' } });
    expect(disabled.status).toBe(200);
    expect(disabled.body).toMatchObject({ status: 'disabled', name: 'Globex Corporation' });
    expect(typeof disabled.body.disabled_at).toBe('string');
    // The revocation event drops every service's cached verification.
    await eventually('the key refused', async () => ((await gw('/portal/workflows', { headers: withKey(key) })).status === 401 ? true : undefined), 10_000, 50);
    expect((await gw('/portal/workflows', { headers: withKey(a.test_key, { 'x-scope-key': customer }) })).status).toBe(403);
    expect((await fetch(embedUrl)).status).toBe(401);
    const publishTo = await gw('/portal/workflows', {
      headers: withKey(a.test_key),
      body: {
        workflow_id: (await gw(`/portal/workflows/${published}`, { headers: withKey(a.test_key) })).body.workflow_id,
        visibility: { customer_ids: [customer] },
        title: 'x',
      },
    });
    expect(publishTo.status).toBe(400);
    expect(publishTo.body.details?.[0].field).toBe('visibility.customer_ids[0]');

    const listed = async (query: string) => ((await gw(`/portal/customers?${query}`, { headers: withKey(a.test_key) })).body.data ?? []).map((c) => c.id);
    expect(await listed('status=disabled')).toEqual([customer]);
    expect(await listed('status=active')).toEqual([other]);
    expect(await listed('name=GLOBEX')).toEqual([customer]);
    expect((await gw('/portal/customers?status=gone', { headers: withKey(a.test_key) })).status).toBe(400);

    const enabled = await gw(`/portal/customers/${customer}`, { method: 'PATCH', headers: withKey(a.test_key), body: { status: 'active' } });
    expect(enabled.body).toMatchObject({ status: 'active', disabled_at: null });
    expect((await fetch(embedUrl)).status).toBe(200);
    // A refused key's answer is cached for KEY_CACHE_TTL_MS (5 s): it works again within that.
    await eventually(
      'the key accepted again',
      async () => ((await gw('/portal/workflows', { headers: withKey(key) })).status === 200 ? true : undefined),
      10_000,
      200,
    );
  }, 30_000);
});
