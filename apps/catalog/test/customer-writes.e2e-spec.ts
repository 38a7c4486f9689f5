import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { call, createTenant, e2eEnvironment, withKey, type TestTenant, FORBIDDEN_ANSWER } from '@platform/testing';

/**
 * Connectors installed in an environment (custom and marketplace ones) are the tenant's: every
 * connection and run of the environment uses them. A customer may use them, never change them.
 */
const env = e2eEnvironment();
type Json = Record<string, unknown> & { data?: Json[] };
const gw = (path: string, request?: Parameters<typeof call>[2]) => call<Json>(env.gatewayUrl, path, request);

const FORBIDDEN = { ...FORBIDDEN_ANSWER, request_id: expect.any(String) };

const definition = (id: string, name: string) => ({
  id,
  name,
  version: '0.1.0',
  description: 'The tenant’s own CRM',
  categories: ['crm'],
  icon: 'https://crm.example.com/icon.svg',
  publisher: 'Acme',
  auth: [{ type: 'bearer', prefix: 'Bearer ' }],
  base_url: 'https://crm.example.com',
  settings_schema: { type: 'object' },
  driver: 'http',
  operations: [
    { id: 'whoami', name: 'Who am I', description: 'The user', input_schema: { type: 'object' }, output_schema: {}, http: { method: 'GET', path: '/user' } },
  ],
  test_operation: { operation: 'whoami', input: {} },
});

describe('connectors: customers use the tenant’s, never change them', () => {
  let a: TestTenant;
  let customerKey: string;
  let customerId: string;

  beforeAll(async () => {
    a = await createTenant(env.gatewayUrl, env.adminToken, `cat-${randomUUID().slice(0, 6)}`);
    customerId = (await gw('/portal/customers', { headers: withKey(a.test_key), body: { name: 'Globex' } })).body.id as string;
    const key = await gw('/account/api-keys', {
      headers: withKey(a.test_key),
      body: {
        name: 'globex',
        type: 'customer',
        customer_id: customerId,
        scopes: ['connections:read', 'connections:write', 'workflows:write'],
        data_plane_id: a.sandbox_data_plane_id,
      },
    });
    expect(key.status).toBe(201);
    customerKey = key.body.key as string;
    const saved = await gw('/catalog/connectors', { method: 'PUT', headers: withKey(a.test_key), body: definition('acme-crm', 'Acme CRM') });
    expect([saved.status, saved.text]).toEqual([200, expect.any(String)]);
  });

  const CALLERS = [
    ['a customer key', 0],
    ['a tenant key narrowed with X-Scope-Key', 1],
  ] as const;
  const headersOf = (i: number) => (i === 0 ? withKey(customerKey) : withKey(a.test_key, { 'x-scope-key': customerId }));

  it.each(CALLERS)('%s cannot save, replace or remove a connector of the environment (403), and changes nothing', async (_, i) => {
    const headers = headersOf(i);
    const replace = await gw('/catalog/connectors', { method: 'PUT', headers, body: definition('acme-crm', 'Hijacked CRM') });
    expect({ status: replace.status, body: replace.body }).toEqual({ status: 403, body: FORBIDDEN });
    expect((await gw('/catalog/connectors', { method: 'PUT', headers, body: definition(`own-${i}`, 'Own') })).status).toBe(403);
    expect((await gw('/catalog/connectors/acme-crm', { method: 'DELETE', headers })).status).toBe(403);
    // The tenant's connector is as it was, and no other appeared.
    expect((await gw('/catalog/connectors/acme-crm', { headers: withKey(a.test_key) })).body).toMatchObject({ name: 'Acme CRM', source: 'custom' });
    expect((await gw(`/catalog/connectors/own-${i}`, { headers: withKey(a.test_key) })).status).toBe(404);
    // It still reads it.
    expect((await gw('/catalog/connectors/acme-crm', { headers })).status).toBe(200);
  });

  it.each(CALLERS)('%s cannot install a marketplace connector into the environment, but may instantiate a template as its own workflow', async (_, i) => {
    const headers = headersOf(i);
    const listing = (await gw('/catalog/marketplace?kind=connector&q=incident', { headers: withKey(a.test_key) })).body.data![0];
    const install = await gw(`/catalog/marketplace/${listing.id as string}/install`, { method: 'POST', headers });
    expect({ status: install.status, body: install.body }).toEqual({ status: 403, body: FORBIDDEN });
    expect((await gw(`/catalog/connectors/${(listing.slug as string) ?? 'pagerduty'}`, { headers: withKey(a.test_key) })).status).toBe(404);
    const template = (await gw('/catalog/marketplace?kind=template', { headers: withKey(a.test_key) })).body.data![0];
    expect((await gw(`/catalog/marketplace/${template.id as string}/install`, { method: 'POST', headers })).status).toBe(201);
  });
});
