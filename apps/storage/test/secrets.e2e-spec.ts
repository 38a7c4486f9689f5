import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import type { NatsConnection } from '@nats-io/transport-node';
import { Bus, BusError, StorageSubjects, configureNamespace, connectNats } from '@platform/messaging';
import { call, createTenant, e2eEnvironment, withKey, type TestTenant } from '@platform/testing';

const env = e2eEnvironment();
type Body = Record<string, unknown> & { data?: Record<string, unknown>[]; details?: { field: string; message: string }[] };
const gw = (path: string, request?: Parameters<typeof call>[2]) => call<Body>(env.gatewayUrl, path, request);

/** A value nobody could guess, so finding it anywhere means it leaked. */
const secretValue = (label: string) => `${label}-${randomBytes(12).toString('hex')}`;

describe('secrets end to end', () => {
  let a: TestTenant;
  let b: TestTenant;
  let admin: pg.Client;
  let nc: NatsConnection;
  let bus: Bus;
  const values: string[] = [];

  const resolve = (tenant: TestTenant, environmentId: string, names: string[], purpose = 'run:execution:e2e') =>
    bus.request(StorageSubjects.secretsResolve, { names, purpose }, { requestId: randomUUID(), tenantId: tenant.tenant_id, environmentId, actor: 'e2e' });

  const create = async (tenant: TestTenant, name: string, key = tenant.test_key, description?: string) => {
    const value = secretValue(name);
    values.push(value);
    const res = await gw('/storage/secrets', { headers: withKey(key), body: { name, value, ...(description ? { description } : {}) } });
    expect(res.status).toBe(201);
    expect(res.text).not.toContain(value);
    return value;
  };

  beforeAll(async () => {
    [a, b] = await Promise.all([createTenant(env.gatewayUrl, env.adminToken, 'secrets-a'), createTenant(env.gatewayUrl, env.adminToken, 'secrets-b')]);
    admin = new pg.Client({ connectionString: env.databaseUrl });
    await admin.connect();
    configureNamespace(env.serviceEnv.storage.NATS_NAMESPACE ?? '');
    nc = await connectNats({ url: env.serviceEnv.storage.NATS_URL ?? process.env.NATS_URL ?? 'nats://127.0.0.1:4222', name: 'secrets-e2e' });
    bus = new Bus(nc);
  });

  afterAll(async () => {
    await nc?.close();
    await admin?.end();
  });

  it('creates, lists, gets, replaces and deletes a secret, answering metadata only', async () => {
    const value = await create(a, 'STRIPE_API_KEY', a.test_key, 'billing');
    const got = await gw('/storage/secrets/STRIPE_API_KEY', { headers: withKey(a.test_key) });
    expect(got.status).toBe(200);
    expect(got.body).toEqual({
      name: 'STRIPE_API_KEY',
      description: 'billing',
      created_at: expect.any(String),
      updated_at: expect.any(String),
      last_read_at: null,
    });
    const list = await gw('/storage/secrets', { headers: withKey(a.test_key) });
    expect(list.body.data?.map((s) => s.name)).toContain('STRIPE_API_KEY');
    expect(Object.keys(list.body.data![0]).sort()).toEqual(['created_at', 'description', 'last_read_at', 'name', 'updated_at']);
    expect(list.text).not.toContain(value);

    const next = secretValue('replaced');
    values.push(next);
    const replaced = await gw('/storage/secrets/STRIPE_API_KEY', { method: 'PUT', headers: withKey(a.test_key), body: { value: next } });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ name: 'STRIPE_API_KEY', description: 'billing' });
    expect(replaced.text).not.toContain(next);
    expect((await resolve(a, a.sandbox_data_plane_id, ['STRIPE_API_KEY'])).values).toEqual({ STRIPE_API_KEY: next });

    const cleared = await gw('/storage/secrets/STRIPE_API_KEY', { method: 'PUT', headers: withKey(a.test_key), body: { value: next, description: null } });
    expect(cleared.body.description).toBeNull();

    const deleted = await gw('/storage/secrets/STRIPE_API_KEY', { method: 'DELETE', headers: withKey(a.test_key) });
    expect(deleted.status).toBe(204);
    expect((await gw('/storage/secrets/STRIPE_API_KEY', { headers: withKey(a.test_key) })).status).toBe(404);
    expect((await gw('/storage/secrets/STRIPE_API_KEY', { method: 'DELETE', headers: withKey(a.test_key) })).status).toBe(404);
  });

  it('refuses a duplicate name in the same environment (409) but not in the other one', async () => {
    await create(a, 'DUP');
    const dup = await gw('/storage/secrets', { headers: withKey(a.test_key), body: { name: 'DUP', value: 'x' } });
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ error: 'Conflict', status: 409, request_id: expect.any(String) });
    await create(a, 'DUP', a.live_key);
  });

  it('pages through secrets by name', async () => {
    for (const name of ['page.a', 'page.b', 'page.c']) await create(b, name);
    const first = await gw('/storage/secrets?limit=2', { headers: withKey(b.test_key) });
    expect(first.body.data?.map((s) => s.name)).toEqual(['page.a', 'page.b']);
    const rest = await gw(`/storage/secrets?limit=2&cursor=${String(first.body.next_cursor)}`, { headers: withKey(b.test_key) });
    expect(rest.body).toMatchObject({ data: [{ name: 'page.c' }], next_cursor: null });
  });

  it('resolves values over NATS for runs, records every read, and moves last_read_at', async () => {
    const value = await create(a, 'RESOLVE_ME');
    const answer = await resolve(a, a.sandbox_data_plane_id, ['RESOLVE_ME', 'NOT_THERE', 'RESOLVE_ME']);
    expect(answer).toEqual({ values: { RESOLVE_ME: value }, missing: ['NOT_THERE'] });
    const meta = await gw('/storage/secrets/RESOLVE_ME', { headers: withKey(a.test_key) });
    expect(meta.body.last_read_at).toEqual(expect.any(String));
    const log = await admin.query(
      `select action, purpose, actor from storage.secret_access_log where tenant_id = $1 and secret_name = 'RESOLVE_ME' order by created_at`,
      [a.tenant_id],
    );
    expect(log.rows).toEqual([
      { action: 'create', purpose: 'http:create', actor: expect.stringMatching(/^tenant_key:/) },
      { action: 'read', purpose: 'run:execution:e2e', actor: 'e2e' },
    ]);
    // The other data plane, or another tenant, resolves nothing.
    expect(await resolve(a, a.production_data_plane_id, ['RESOLVE_ME'])).toEqual({ values: {}, missing: ['RESOLVE_ME'] });
    expect(await resolve(b, b.sandbox_data_plane_id, ['RESOLVE_ME'])).toEqual({ values: {}, missing: ['RESOLVE_ME'] });
  });

  it('validates resolve requests: a tenant context, names and a purpose naming the caller', async () => {
    const refused = async (promise: Promise<unknown>) => {
      const error = await promise.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(BusError);
      expect((error as BusError).remote?.status).toBe(400);
    };
    await refused(resolve(a, a.sandbox_data_plane_id, ['X'], 'curiosity'));
    await refused(resolve(a, a.sandbox_data_plane_id, []));
    await refused(resolve(a, a.sandbox_data_plane_id, ['bad name']));
    await refused(bus.request(StorageSubjects.secretsResolve, { names: ['X'], purpose: 'run:x' }, { requestId: randomUUID() }));
  });

  it('stores only ciphertext: no column of any secrets table holds a value', async () => {
    const value = await create(a, 'AT_REST');
    const dump = await admin.query(
      `select row_to_json(s)::text as s from storage.secrets s where tenant_id = $1
       union all select row_to_json(k)::text from storage.data_keys k where tenant_id = $1
       union all select row_to_json(l)::text from storage.secret_access_log l where tenant_id = $1`,
      [a.tenant_id],
    );
    const text = dump.rows.map((r: { s: string }) => r.s).join('\n');
    expect(text).toContain('AT_REST');
    for (const v of values) {
      expect(text).not.toContain(v);
      expect(text).not.toContain(Buffer.from(v).toString('hex'));
      expect(text).not.toContain(Buffer.from(v).toString('base64'));
    }
    const row = await admin.query(
      `select octet_length(ciphertext) as n, octet_length(iv) as iv, octet_length(auth_tag) as tag from storage.secrets where tenant_id = $1 and name = 'AT_REST'`,
      [a.tenant_id],
    );
    expect(row.rows).toEqual([{ n: Buffer.byteLength(value), iv: 12, tag: 16 }]);
  });

  describe('isolation', () => {
    it("hides tenant A's secrets from tenant B: list, get, replace and delete are 404", async () => {
      const value = await create(a, 'A_ONLY');
      expect((await gw('/storage/secrets', { headers: withKey(b.test_key) })).body.data?.map((s) => s.name)).not.toContain('A_ONLY');
      expect((await gw('/storage/secrets/A_ONLY', { headers: withKey(b.test_key) })).status).toBe(404);
      expect((await gw('/storage/secrets/A_ONLY', { method: 'PUT', headers: withKey(b.test_key), body: { value: 'hijack' } })).status).toBe(404);
      expect((await gw('/storage/secrets/A_ONLY', { method: 'DELETE', headers: withKey(b.test_key) })).status).toBe(404);
      expect((await resolve(a, a.sandbox_data_plane_id, ['A_ONLY'])).values).toEqual({ A_ONLY: value });
    });

    it('keeps live and test secrets apart', async () => {
      await create(a, 'LIVE_ONLY', a.live_key);
      expect((await gw('/storage/secrets/LIVE_ONLY', { headers: withKey(a.test_key) })).status).toBe(404);
      expect((await gw('/storage/secrets/LIVE_ONLY', { headers: withKey(a.live_key) })).status).toBe(200);
    });

    it('needs secrets:read / secrets:write, and refuses customer-scoped keys', async () => {
      const key = await gw('/account/api-keys', {
        headers: withKey(a.test_key),
        body: { name: 'reader', type: 'tenant', scopes: ['secrets:read'], data_plane_id: a.sandbox_data_plane_id },
      });
      const reader = key.body.key as string;
      expect((await gw('/storage/secrets', { headers: withKey(reader) })).status).toBe(200);
      expect((await gw('/storage/secrets', { headers: withKey(reader), body: { name: 'NOPE', value: 'x' } })).status).toBe(403);
      const customer = await gw('/portal/customers', { headers: withKey(a.test_key), body: { name: 'Globex' } });
      const scoped = await gw('/storage/secrets', { headers: withKey(a.test_key, { 'x-scope-key': customer.body.id as string }) });
      expect(scoped.status).toBe(403);
    });
  });

  describe('bad input', () => {
    it.each([
      [{ name: 'has space', value: 'x' }, 'name'],
      [{ name: 'x'.repeat(129), value: 'x' }, 'name'],
      [{ name: 'EMPTY', value: '' }, 'value'],
      [{ name: 'NUMBER', value: 42 }, 'value'],
      [{ name: 'BIG', value: 'é'.repeat(40_000) }, 'value'],
      [{ name: 'UNKNOWN', value: 'x', extra: true }, 'extra'],
      [{ value: 'x' }, 'name'],
      [{ name: 'DESC', value: 'x', description: 5 }, 'description'],
    ])('answers 400 naming the field for %j', async (body, field) => {
      const res = await gw('/storage/secrets', { headers: withKey(a.test_key), body });
      expect(res.status).toBe(400);
      expect(res.body.details?.map((d) => d.field)).toContain(field);
      if (typeof body.value === 'string' && body.value.length > 100) expect(res.text).not.toContain(body.value.slice(0, 100));
    });

    it('answers 400 for a malformed name in the path, 415 for a body that is not JSON', async () => {
      expect((await gw('/storage/secrets/bad%20name', { headers: withKey(a.test_key) })).status).toBe(400);
      expect((await gw('/storage/secrets', { headers: withKey(a.test_key, { 'content-type': 'text/plain' }), body: 'name=x' })).status).toBe(415);
      expect((await gw('/storage/secrets', { headers: withKey(a.test_key), body: '{"name": "X", "value": ' })).status).toBe(400);
      expect((await gw('/storage/secrets?limit=0', { headers: withKey(a.test_key) })).status).toBe(400);
      expect((await gw('/storage/secrets?cursor=nope', { headers: withKey(a.test_key) })).status).toBe(400);
    });
  });

  it('never writes a value to the service logs', () => {
    const dir = join(tmpdir(), `platform-e2e-logs-${env.databaseName}`);
    for (const name of ['storage', 'gateway']) {
      const file = join(dir, `${name}.log`);
      if (!existsSync(file)) continue;
      const log = readFileSync(file, 'utf8');
      for (const v of values) expect(log).not.toContain(v);
    }
  });
});
