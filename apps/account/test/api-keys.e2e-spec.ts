import { beforeAll, describe, expect, it } from '@jest/globals';
import { call, createTenant, e2eEnvironment, eventually, withKey, type TestTenant, UNAUTHORIZED_ANSWER, FORBIDDEN_ANSWER } from '@platform/testing';

const env = e2eEnvironment();
type Body = Record<string, unknown> & {
  data?: Record<string, unknown>[];
  key?: string;
  id?: string;
  status?: string;
  details?: { field: string; message: string }[];
};
const gw = (path: string, request?: Parameters<typeof call>[2]) => call<Body>(env.gatewayUrl, path, request);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const UNAUTHORIZED = { ...UNAUTHORIZED_ANSWER, request_id: expect.any(String) };
const FORBIDDEN = { ...FORBIDDEN_ANSWER, request_id: expect.any(String) };

async function createKey(tenant: TestTenant, body: Record<string, unknown>, key = tenant.test_key) {
  const res = await gw(`/api/v1/workflow/data-planes/${tenant.sandbox_data_plane_id}/api-keys`, { headers: withKey(key), body: { type: 'tenant', ...body } });
  expect(res.status).toBe(201);
  return res.body as Body & { key: string; id: string };
}

describe('API keys end to end', () => {
  let a: TestTenant;
  let b: TestTenant;

  beforeAll(async () => {
    [a, b] = await Promise.all([createTenant(env.gatewayUrl, env.adminToken, 'keys-a'), createTenant(env.gatewayUrl, env.adminToken, 'keys-b')]);
  });

  describe("the spec's error table", () => {
    it('401 for no credentials, a malformed key, a bad checksum and an unknown key, with the exact body', async () => {
      const unknown = a.test_key.slice(0, 8) + 'A'.repeat(40);
      for (const headers of [
        {} as Record<string, string>,
        withKey('nope'),
        withKey(`${a.test_key.slice(0, -1)}${a.test_key.endsWith('x') ? 'y' : 'x'}`),
        withKey(unknown),
        { authorization: 'Bearer sv_live_short' },
        { authorization: 'Basic abc' },
      ]) {
        const res = await gw('/account/me', { headers });
        expect({ status: res.status, body: res.body }).toEqual({ status: 401, body: UNAUTHORIZED });
      }
    });

    it('403 for a key without the scope the route needs, with the exact body', async () => {
      const reader = await createKey(a, { name: 'reader', scopes: ['data:read'] });
      const res = await gw('/v1/automations/run', { headers: withKey(reader.key), body: { automation_id: '00000000-0000-4000-8000-000000000000', input: {} } });
      expect({ status: res.status, body: res.body }).toEqual({ status: 403, body: FORBIDDEN });
      // The same key is let through where its scope suffices.
      expect((await gw('/v1/data/query', { headers: withKey(reader.key), body: { query: 'select 1' } })).status).toBe(200);
    });
  });

  it('accepts a key as X-API-Key and as Authorization: Bearer', async () => {
    for (const headers of [withKey(a.test_key), { authorization: `Bearer ${a.test_key}` }]) {
      const res = await gw('/account/me', { headers });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ type: 'api_key', tenant_id: a.tenant_id, environment_id: a.sandbox_data_plane_id, mode: 'test', scopes: ['*'] });
    }
  });

  it('creates a key whose value is shown once, prefixed by its data plane', async () => {
    const created = await createKey(a, { name: 'ci-deployer', scopes: ['automations:run', 'data:read'] });
    expect(created.key).toMatch(/^sv_test_[0-9A-Za-z]{46}$/);
    expect(created).toMatchObject({
      name: 'ci-deployer',
      type: 'tenant',
      mode: 'test',
      data_plane_id: a.sandbox_data_plane_id,
      status: 'active',
      prefix: created.key.slice(0, 12),
      customer_id: null,
      expires_at: null,
      revoked_at: null,
    });
    const fetched = await gw(`/account/api-keys/${created.id}`, { headers: withKey(a.test_key) });
    expect(fetched.status).toBe(200);
    expect(fetched.body).not.toHaveProperty('key');
    expect(JSON.stringify(fetched.body)).not.toContain(created.key);
    const live = await gw('/account/api-keys', {
      headers: withKey(a.live_key),
      body: { name: 'live-one', type: 'tenant', scopes: ['data:read'], data_plane_id: a.production_data_plane_id },
    });
    expect(live.status).toBe(201);
    expect(live.body.key).toMatch(/^sv_live_/);
  });

  it('rotates with a transition period: the old key works, then stops; the new one works', async () => {
    const original = await createKey(a, { name: 'rotating', scopes: ['*'] });
    // Warm the cache of a service other than account with the old key.
    expect((await gw('/catalog/connectors', { headers: withKey(original.key) })).status).toBe(200);
    const rotated = await gw(`/api/v1/workflow/data-planes/api-keys/${original.id}/rotate`, {
      headers: withKey(a.test_key),
      body: { transition_period_seconds: 5 },
    });
    expect(rotated.status).toBe(201);
    const next = rotated.body as Body & { key: string; id: string };
    expect(next.key).not.toBe(original.key);
    expect((await gw(`/account/api-keys/${original.id}`, { headers: withKey(a.test_key) })).body).toMatchObject({ status: 'rotated', replaced_by: next.id });
    expect((await gw('/catalog/connectors', { headers: withKey(original.key) })).status).toBe(200);
    expect((await gw('/catalog/connectors', { headers: withKey(next.key) })).status).toBe(200);
    // Refused once the transition is over (polled: a loaded machine answers late, never early).
    await eventually(
      'the old key refused',
      async () => ((await gw('/catalog/connectors', { headers: withKey(original.key) })).status === 401 ? true : undefined),
      20_000,
    );
    expect((await gw('/account/me', { headers: withKey(original.key) })).status).toBe(401);
    expect((await gw('/catalog/connectors', { headers: withKey(next.key) })).status).toBe(200);
    // Rotating a key that is no longer active is a conflict.
    expect((await gw(`/account/api-keys/${original.id}/rotate`, { headers: withKey(a.test_key), body: {} })).status).toBe(409);
  });

  it('revokes: the key fails on its very next request in another service', async () => {
    const doomed = await createKey(a, { name: 'doomed', scopes: ['*'] });
    for (const path of ['/catalog/connectors', '/kb/knowledge-bases', '/account/me']) {
      expect((await gw(path, { headers: withKey(doomed.key) })).status).not.toBe(401);
    }
    const revoked = await gw(`/api/v1/workflow/data-planes/api-keys/${doomed.id}/revoke`, { method: 'POST', headers: withKey(a.test_key) });
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ id: doomed.id, status: 'revoked', revoked_at: expect.any(String) });
    for (const path of ['/catalog/connectors', '/kb/knowledge-bases', '/account/me']) {
      expect((await gw(path, { headers: withKey(doomed.key) })).status).toBe(401);
    }
    expect((await gw(`/account/api-keys/${doomed.id}/revoke`, { method: 'POST', headers: withKey(a.test_key) })).status).toBe(409);
  });

  it('expires a key at its date, and its state changes without it being used', async () => {
    const soon = await createKey(a, { name: 'short-lived', scopes: ['*'], expires_at: new Date(Date.now() + 3000).toISOString() });
    expect((await gw('/catalog/connectors', { headers: withKey(soon.key) })).status).toBe(200);
    // The sweep marks it expired (polled: a loaded machine sweeps late, never early); the key itself is not used meanwhile.
    await eventually(
      'the key marked expired',
      async () => ((await gw(`/account/api-keys/${soon.id}`, { headers: withKey(a.test_key) })).body.status === 'expired' ? true : undefined),
      20_000,
    );
    const stored = await gw(`/account/api-keys?status=expired`, { headers: withKey(a.test_key) });
    expect((stored.body.data ?? []).map((k) => k.id)).toContain(soon.id);
    expect((await gw('/catalog/connectors', { headers: withKey(soon.key) })).status).toBe(401);
  });

  describe('isolation', () => {
    it("hides tenant A's keys from tenant B: list, get, rotate and revoke are 404", async () => {
      const secret = await createKey(a, { name: 'a-only', scopes: ['data:read'] });
      const list = await gw('/account/api-keys', { headers: withKey(b.test_key) });
      expect((list.body.data ?? []).map((k) => k.id)).not.toContain(secret.id);
      expect((await gw(`/account/api-keys/${secret.id}`, { headers: withKey(b.test_key) })).status).toBe(404);
      expect((await gw(`/account/api-keys/${secret.id}/rotate`, { headers: withKey(b.test_key), body: {} })).status).toBe(404);
      expect((await gw(`/api/v1/workflow/data-planes/api-keys/${secret.id}/revoke`, { method: 'POST', headers: withKey(b.test_key) })).status).toBe(404);
      expect((await gw(`/account/api-keys/${secret.id}/usage`, { headers: withKey(b.test_key) })).status).toBe(404);
      // And A's key still works: B's attempts changed nothing.
      expect((await gw('/account/me', { headers: withKey(secret.key) })).status).toBe(200);
    });

    it('never shows production rows to a test key', async () => {
      const list = await gw('/account/api-keys', { headers: withKey(a.test_key) });
      expect((list.body.data ?? []).every((k) => k.mode === 'test' && k.data_plane_id === a.sandbox_data_plane_id)).toBe(true);
      const liveKeys = await gw('/account/api-keys', { headers: withKey(a.live_key) });
      const liveId = (liveKeys.body.data ?? [])[0]?.id as string;
      expect(liveId).toBeDefined();
      expect((await gw(`/account/api-keys/${liveId}`, { headers: withKey(a.test_key) })).status).toBe(404);
      const intoProduction = await gw(`/api/v1/workflow/data-planes/${a.production_data_plane_id}/api-keys`, {
        headers: withKey(a.test_key),
        body: { name: 'x', type: 'tenant', scopes: ['*'] },
      });
      expect(intoProduction.status).toBe(404);
    });

    it('does not let a key grant more than it holds', async () => {
      const manager = await createKey(a, { name: 'manager', scopes: ['api_keys:manage', 'data:read'] });
      const escalate = await gw(`/api/v1/workflow/data-planes/${a.sandbox_data_plane_id}/api-keys`, {
        headers: withKey(manager.key),
        body: { name: 'x', type: 'tenant', scopes: ['*'] },
      });
      expect(escalate.status).toBe(403);
      const narrower = await gw(`/api/v1/workflow/data-planes/${a.sandbox_data_plane_id}/api-keys`, {
        headers: withKey(manager.key),
        body: { name: 'y', type: 'tenant', scopes: ['data:read'] },
      });
      expect(narrower.status).toBe(201);
    });
  });

  describe('bad input', () => {
    const create = (body: unknown) => gw(`/api/v1/workflow/data-planes/${a.sandbox_data_plane_id}/api-keys`, { headers: withKey(a.test_key), body });

    it.each([
      [{ name: 'x', type: 'tenant', scopes: ['data:read', 'bogus:scope'] }, 'scopes[1]'],
      [{ name: 'x', type: 'tenant', scopes: [] }, 'scopes'],
      [{ name: 'x', type: 'tenant', scopes: ['data:read'], expires_at: '2020-01-01T00:00:00Z' }, 'expires_at'],
      [{ name: 'x', type: 'tenant', scopes: ['data:read'], expires_at: 'tomorrow' }, 'expires_at'],
      [{ name: '', type: 'tenant', scopes: ['data:read'] }, 'name'],
      [{ name: 'x', type: 'admin', scopes: ['data:read'] }, 'type'],
      [{ name: 'x', type: 'customer', scopes: ['data:read'] }, 'customer_id'],
      [{ name: 'x', type: 'tenant', scopes: ['data:read'], surprise: true }, 'surprise'],
    ])('refuses %j with a 400 naming %s', async (body, field) => {
      const res = await create(body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: 'Bad Request', status: 400 });
      expect((res.body.details as { field: string }[]).map((d) => d.field)).toContain(field);
    });

    it.each([-1, 2_592_001, 1.5, 'abc'])('refuses a transition period of %j', async (value) => {
      const key = await createKey(a, { name: 'to-rotate', scopes: ['data:read'] });
      const res = await gw(`/account/api-keys/${key.id}/rotate`, { headers: withKey(a.test_key), body: { transition_period_seconds: value } });
      expect(res.status).toBe(400);
      expect((res.body.details as { field: string }[])[0].field).toBe('transition_period_seconds');
    });

    it('answers a non-UUID key id, a huge credential and oversized headers with a clear 4xx, never 500', async () => {
      expect((await gw('/account/api-keys/not-a-uuid', { headers: withKey(a.test_key) })).status).toBe(400);
      expect((await gw('/account/me', { headers: withKey(`sv_test_${'x'.repeat(9000)}`) })).status).toBe(401);
      expect((await gw('/account/me', { headers: { authorization: `Bearer ${'x'.repeat(9000)}` } })).status).toBe(401);
      expect((await gw('/account/me', { headers: { 'x-api-key': a.test_key, 'x-scope-key': 'not-a-uuid' } })).status).toBe(403);
      const oversized = await gw('/account/me', { headers: { 'x-api-key': a.test_key, 'x-padding': 'p'.repeat(20_000) } });
      expect(oversized.status).toBe(431);
      expect(oversized.body).toMatchObject({ error: 'Request Header Fields Too Large', status: 431 });
    });
  });

  it('records usage and an audit log filterable by key name, endpoint, status and date', async () => {
    const audited = await createKey(a, { name: `audited-${Date.now()}`, scopes: ['data:read'] });
    await gw('/account/me', { headers: withKey(audited.key) });
    await gw('/account/me', { headers: withKey(audited.key) });
    await gw('/v1/automations/run', { headers: withKey(audited.key), body: { automation_id: 'x', input: {} } });
    const name = audited.name as string;
    let entries: Record<string, unknown>[] = [];
    for (let i = 0; i < 50 && entries.length < 3; i++) {
      await sleep(200);
      entries = (await gw(`/account/audit-logs?key_name=${encodeURIComponent(name)}`, { headers: withKey(a.test_key) })).body.data ?? [];
    }
    expect(entries).toHaveLength(3);
    const errors = await gw(`/account/audit-logs?key_name=${encodeURIComponent(name)}&status=error`, { headers: withKey(a.test_key) });
    expect(errors.body.data).toEqual([
      expect.objectContaining({
        key_id: audited.id,
        method: 'POST',
        endpoint: '/v1/automations/run',
        status: 'error',
        http_status: 403,
        request_id: expect.any(String),
      }),
    ]);
    const byEndpoint = await gw(
      `/account/audit-logs?key_name=${encodeURIComponent(name)}&endpoint=${encodeURIComponent('/account/me')}&from=${new Date(Date.now() - 60_000).toISOString()}`,
      { headers: withKey(a.test_key) },
    );
    expect(byEndpoint.body.data).toHaveLength(2);
    const future = await gw(
      `/account/audit-logs?key_name=${encodeURIComponent(name)}&from=${new Date(Date.now() + 60_000).toISOString()}&to=${new Date(Date.now() + 120_000).toISOString()}`,
      { headers: withKey(a.test_key) },
    );
    expect(future.body.data).toEqual([]);
    // A window that simply holds nothing is an empty page: a future `from` with `to` left to default to now.
    const fromFuture = await gw(`/account/audit-logs?from=${new Date(Date.now() + 3_600_000).toISOString()}`, { headers: withKey(a.test_key) });
    expect([fromFuture.status, fromFuture.body.data]).toEqual([200, []]);
    // Only an explicit `to` before `from` is the client's mistake, and the error names `to`.
    const backwards = await gw(`/account/audit-logs?from=2026-11-02T00:00:00Z&to=2026-11-01T00:00:00Z`, { headers: withKey(a.test_key) });
    expect([backwards.status, backwards.body.details]).toEqual([400, [{ field: 'to', message: 'must not be before from' }]]);
    const usage = await gw(`/account/api-keys/${audited.id}/usage`, { headers: withKey(a.test_key) });
    expect(usage.body).toMatchObject({
      key_id: audited.id,
      total: 3,
      success: 2,
      error: 1,
      by_endpoint: expect.arrayContaining([{ endpoint: '/account/me', count: 2 }]),
    });
    expect((await gw(`/account/api-keys/${audited.id}`, { headers: withKey(a.test_key) })).body.last_used_at).toEqual(expect.any(String));
    // Tenant B sees none of it.
    expect((await gw(`/account/audit-logs?key_name=${encodeURIComponent(name)}`, { headers: withKey(b.test_key) })).body.data).toEqual([]);
    expect((await gw('/account/audit-logs?status=maybe', { headers: withKey(a.test_key) })).status).toBe(400);
  });

  it('filters the audit log by one key (key_id): two keys of one name are told apart, another tenant finds nothing', async () => {
    const name = `twin-${Date.now()}`;
    const [first, second] = [await createKey(a, { name, scopes: ['data:read'] }), await createKey(a, { name, scopes: ['data:read'] })];
    await gw('/account/me', { headers: withKey(first.key) });
    await gw('/account/me', { headers: withKey(second.key) });
    await gw('/v1/automations/run', { headers: withKey(second.key), body: { automation_id: 'x', input: {} } });
    const list = (query: string, key = a.test_key) => gw(`/account/audit-logs?${query}`, { headers: withKey(key) });
    let byName: Record<string, unknown>[] = [];
    for (let i = 0; i < 50 && byName.length < 3; i++) {
      await sleep(200);
      byName = (await list(`key_name=${encodeURIComponent(name)}`)).body.data ?? [];
    }
    expect(byName).toHaveLength(3);
    const ofFirst = await list(`key_id=${first.id}`);
    expect([ofFirst.status, ofFirst.body.data?.map((e: Record<string, unknown>) => [e.key_id, e.endpoint])]).toEqual([200, [[first.id, '/account/me']]]);
    const ofSecond = (await list(`key_id=${second.id}`)).body.data ?? [];
    expect(ofSecond.map((e: Record<string, unknown>) => e.key_id)).toEqual([second.id, second.id]);
    // With the other filters: the second key's failed use only.
    const failed = await list(`key_id=${second.id}&status=error&from=${new Date(Date.now() - 300_000).toISOString()}`);
    expect(failed.body.data?.map((e: Record<string, unknown>) => [e.endpoint, e.http_status])).toEqual([['/v1/automations/run', 403]]);
    // Another tenant asking for this key's id gets an empty page, as for an id that does not exist.
    expect(await list(`key_id=${first.id}`, b.test_key).then((r) => [r.status, r.body.data])).toEqual([200, []]);
    const notAnId = await list('key_id=not-a-uuid');
    expect([notAnId.status, notAnId.body.code, notAnId.body.details?.[0]?.field]).toEqual([400, 'validation_failed', 'key_id']);
  });

  it('describes the account: organizations, team members, the scope catalogue', async () => {
    const orgs = await gw('/account/organizations', { headers: withKey(a.test_key) });
    expect(orgs.body).toEqual({ data: [{ id: expect.any(String), name: 'keys-a', created_at: expect.any(String) }], next_cursor: null });
    const members = await gw('/account/team/members?limit=1', { headers: withKey(a.test_key) });
    expect(members.body.data).toEqual([expect.objectContaining({ email: 'owner+keys-a@example.test', role: 'owner', team_name: 'Default' })]);
    const scopes = await gw('/account/api-keys/scopes', { headers: withKey(a.test_key) });
    expect((scopes.body.data ?? []).map((s) => s.scope)).toEqual(expect.arrayContaining(['automations:run', 'data:read', 'data:write', '*']));
    expect((await gw('/account/organizations?limit=0', { headers: withKey(a.test_key) })).status).toBe(400);
  });
});
