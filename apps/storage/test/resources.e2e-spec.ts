import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { call, createTenant, e2eEnvironment, withKey, type TestTenant } from '@platform/testing';

const env = e2eEnvironment();
type Body = Record<string, unknown> & { data?: Record<string, unknown>[]; next_cursor?: string | null; id?: string; details?: { field: string }[] };
const gw = (path: string, request?: Parameters<typeof call>[2]) => call<Body>(env.gatewayUrl, path, request);

const create = (key: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  gw('/storage/resources', { headers: withKey(key, headers), body: { type: 'postgres', config: {}, ...body } });

describe('resources end to end', () => {
  let a: TestTenant;
  let b: TestTenant;

  beforeAll(async () => {
    [a, b] = await Promise.all([createTenant(env.gatewayUrl, env.adminToken, 'res-a'), createTenant(env.gatewayUrl, env.adminToken, 'res-b')]);
  });

  it('creates, lists, gets, replaces, merges and deletes', async () => {
    const made = await create(a.test_key, { name: 'orders-db', config: { host: 'db.internal', port: 5432, tls: { verify: true } }, description: 'Orders' });
    expect(made.status).toBe(201);
    expect(made.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'orders-db',
      type: 'postgres',
      config: { host: 'db.internal', port: 5432, tls: { verify: true } },
      description: 'Orders',
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const id = made.body.id!;
    expect((await create(a.test_key, { name: 'orders-db' })).status).toBe(409);
    await create(a.test_key, { name: 'billing.api', type: 'http', config: { url: 'https://billing.example' } });
    await create(a.test_key, { name: 'analytics_db' });

    const names = (res: { body: Body }) => (res.body.data ?? []).map((r) => r.name);
    expect(names(await gw('/storage/resources', { headers: withKey(a.test_key) }))).toEqual(['analytics_db', 'billing.api', 'orders-db']);
    expect(names(await gw('/storage/resources?type=http', { headers: withKey(a.test_key) }))).toEqual(['billing.api']);
    const page = await gw('/storage/resources?limit=2', { headers: withKey(a.test_key) });
    expect(names(page)).toEqual(['analytics_db', 'billing.api']);
    const rest = await gw(`/storage/resources?limit=2&cursor=${String(page.body.next_cursor)}`, { headers: withKey(a.test_key) });
    expect(names(rest)).toEqual(['orders-db']);
    expect(rest.body.next_cursor).toBeNull();
    expect((await gw(`/storage/resources/${id}`, { headers: withKey(a.test_key) })).body).toEqual(made.body);

    // PATCH merges config at the top level (null removes a key) and leaves other fields alone.
    const patched = await gw(`/storage/resources/${id}`, {
      method: 'PATCH',
      headers: withKey(a.test_key),
      body: { config: { port: 6432, host: null, tls: { verify: false } } },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ name: 'orders-db', type: 'postgres', description: 'Orders', config: { port: 6432, tls: { verify: false } } });
    expect(Date.parse(String(patched.body.updated_at))).toBeGreaterThanOrEqual(Date.parse(String(made.body.updated_at)));
    // PUT replaces everything; an omitted description becomes null.
    const replaced = await gw(`/storage/resources/${id}`, {
      method: 'PUT',
      headers: withKey(a.test_key),
      body: { name: 'orders-primary', type: 'mysql', config: { host: 'h' } },
    });
    expect(replaced.body).toMatchObject({
      id,
      name: 'orders-primary',
      type: 'mysql',
      config: { host: 'h' },
      description: null,
      created_at: made.body.created_at,
    });
    expect((await gw(`/storage/resources/${id}`, { method: 'PATCH', headers: withKey(a.test_key), body: { name: 'billing.api' } })).status).toBe(409);
    expect(
      (await gw(`/storage/resources/${id}`, { method: 'PUT', headers: withKey(a.test_key), body: { name: 'analytics_db', type: 'x', config: {} } })).status,
    ).toBe(409);

    expect((await gw(`/storage/resources/${id}`, { method: 'DELETE', headers: withKey(a.test_key) })).status).toBe(204);
    expect((await gw(`/storage/resources/${id}`, { headers: withKey(a.test_key) })).status).toBe(404);
    expect((await gw(`/storage/resources/${id}`, { method: 'DELETE', headers: withKey(a.test_key) })).status).toBe(404);
    // The name is free again.
    expect((await create(a.test_key, { name: 'orders-primary' })).status).toBe(201);
  });

  it('refuses bad input with 4xx naming the field, never 500', async () => {
    const cases: [Promise<{ status: number; body: Body }>, number, string?][] = [
      [create(a.test_key, { name: 'has space' }), 400, 'name'],
      [create(a.test_key, { name: '' }), 400, 'name'],
      [create(a.test_key, { name: 'x'.repeat(129) }), 400, 'name'],
      [create(a.test_key, { name: 'ok', type: '' }), 400, 'type'],
      [create(a.test_key, { name: 'ok', type: 't'.repeat(65) }), 400, 'type'],
      [create(a.test_key, { name: 'ok', config: [1, 2] }), 400, 'config'],
      [create(a.test_key, { name: 'ok', config: 'text' }), 400, 'config'],
      [create(a.test_key, { name: 'ok', config: { blob: 'x'.repeat(64 * 1024) } }), 400, 'config'],
      [create(a.test_key, { name: 'ok', colour: 'red' }), 400, 'colour'],
      [create(a.test_key, { name: 'ok', description: 42 }), 400, 'description'],
      [gw('/storage/resources', { headers: withKey(a.test_key), body: { type: 'x', config: {} } }), 400, 'name'],
      [gw('/storage/resources', { headers: withKey(a.test_key), body: '{"name": ' }), 400],
      [gw('/storage/resources', { headers: { ...withKey(a.test_key), 'content-type': 'text/plain' }, body: 'name=x' }), 415],
      [gw('/storage/resources/not-a-uuid', { headers: withKey(a.test_key) }), 400],
      [gw('/storage/resources/not-a-uuid', { method: 'PATCH', headers: withKey(a.test_key), body: {} }), 400],
      [gw(`/storage/resources/${randomUUID()}`, { method: 'PATCH', headers: withKey(a.test_key), body: { colour: 1 } }), 400, 'colour'],
      [gw(`/storage/resources/${randomUUID()}`, { method: 'PUT', headers: withKey(a.test_key), body: { name: 'x', type: 'x', config: {} } }), 404],
      [gw('/storage/resources?cursor=garbage', { headers: withKey(a.test_key) }), 400],
      [gw('/storage/resources?colour=red', { headers: withKey(a.test_key) }), 400, 'colour'],
    ];
    for (const [promise, status, field] of cases) {
      const res = await promise;
      expect({ status: res.status, body: res.body }).toMatchObject({ status, body: { status } });
      if (field) expect(res.body.details?.map((d) => d.field)).toContain(field);
    }
    // A merge that grows the config past 64 KiB is refused too.
    const small = await create(a.test_key, { name: 'growing', config: { a: 'x'.repeat(40 * 1024) } });
    const grown = await gw(`/storage/resources/${small.body.id!}`, {
      method: 'PATCH',
      headers: withKey(a.test_key),
      body: { config: { b: 'y'.repeat(40 * 1024) } },
    });
    expect(grown.status).toBe(400);
    expect(grown.body.details?.map((d) => d.field)).toEqual(['config']);
  });

  it('keeps every tenant, environment and customer to its own resources', async () => {
    const mine = await create(a.test_key, { name: 'private-api', type: 'http', config: { token_secret: 'API_TOKEN' } });
    const id = mine.body.id!;
    for (const request of [
      {},
      { method: 'DELETE' },
      { method: 'PATCH', body: { description: 'hijack' } },
      { method: 'PUT', body: { name: 'hijack', type: 'x', config: {} } },
    ]) {
      expect((await gw(`/storage/resources/${id}`, { ...request, headers: withKey(b.test_key) })).status).toBe(404);
    }
    expect((await gw('/storage/resources', { headers: withKey(b.test_key) })).body.data).toEqual([]);
    // The same name is free in another tenant and in the other environment of the same tenant.
    expect((await create(b.test_key, { name: 'private-api' })).status).toBe(201);
    expect((await gw('/storage/resources', { headers: withKey(a.live_key) })).body.data).toEqual([]);
    expect((await gw(`/storage/resources/${id}`, { headers: withKey(a.live_key) })).status).toBe(404);
    expect((await create(a.live_key, { name: 'private-api' })).status).toBe(201);
    expect((await gw(`/storage/resources/${id}`, { headers: withKey(a.test_key) })).body).toMatchObject({ name: 'private-api', description: null });

    const customer = (await gw('/portal/customers', { headers: withKey(a.test_key), body: { name: 'Globex' } })).body.id as string;
    const key = await gw('/account/api-keys', {
      headers: withKey(a.test_key),
      body: { name: 'globex-res', type: 'customer', customer_id: customer, scopes: ['storage:read', 'storage:write'], data_plane_id: a.sandbox_data_plane_id },
    });
    const customerKey = key.body.key as string;
    const own = await create(customerKey, { name: 'globex-endpoint', type: 'http' });
    expect(own.status).toBe(201);
    expect((await gw('/storage/resources', { headers: withKey(customerKey) })).body.data?.map((r) => r.name)).toEqual(['globex-endpoint']);
    expect((await gw(`/storage/resources/${id}`, { headers: withKey(customerKey) })).status).toBe(404);
    expect((await gw(`/storage/resources/${id}`, { method: 'DELETE', headers: withKey(customerKey) })).status).toBe(404);
    // The tenant sees its customers' resources as well as its own.
    expect((await gw('/storage/resources', { headers: withKey(a.test_key) })).body.data?.map((r) => r.name)).toEqual(
      expect.arrayContaining(['globex-endpoint', 'private-api']),
    );
  });
});
