import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { NatsConnection } from '@nats-io/transport-node';
import { Bus, BusError, StorageSubjects, configureNamespace, connectNats } from '@platform/messaging';
import { call, createTenant, e2eEnvironment, withKey, type TestTenant } from '@platform/testing';

const env = e2eEnvironment();
type Row = Record<string, unknown>;
type Body = Record<string, unknown> & { data?: Row[]; rows?: Row[]; next_cursor?: string | null; details?: { field: string; message: string }[] };
const gw = (path: string, request?: Parameters<typeof call>[2]) => call<Body>(env.gatewayUrl, path, request);

const CONTACTS = {
  name: 'contacts',
  columns: [
    { name: 'email', type: 'text', nullable: false, unique: true },
    { name: 'score', type: 'number' },
    { name: 'active', type: 'boolean' },
    { name: 'seen_at', type: 'timestamp' },
    { name: 'profile', type: 'json' },
  ],
  indexes: [['active', 'score']],
};

describe('data tables and rows end to end', () => {
  let a: TestTenant;
  let b: TestTenant;
  let nc: NatsConnection;
  let bus: Bus;

  const post = (key: string, path: string, body: unknown) => gw(path, { headers: withKey(key), body });
  const context = (tenant: TestTenant, scopeId: string | null = null) => ({
    requestId: randomUUID(),
    tenantId: tenant.tenant_id,
    environmentId: tenant.sandbox_data_plane_id,
    scopeId,
    actor: 'run:execution:e2e',
  });

  beforeAll(async () => {
    [a, b] = await Promise.all([createTenant(env.gatewayUrl, env.adminToken, 'data-a'), createTenant(env.gatewayUrl, env.adminToken, 'data-b')]);
    for (const tenant of [a, b]) expect((await post(tenant.test_key, '/storage/data-tables', CONTACTS)).status).toBe(201);
    configureNamespace(env.serviceEnv.storage.NATS_NAMESPACE ?? '');
    nc = await connectNats({ url: env.serviceEnv.storage.NATS_URL ?? process.env.NATS_URL ?? 'nats://127.0.0.1:4222', name: 'data-e2e' });
    bus = new Bus(nc);
  });

  afterAll(async () => {
    await nc?.close();
  });

  it('creates, lists, gets and deletes a table definition', async () => {
    const created = await post(a.test_key, '/storage/data-tables', { name: 'scratch', columns: [{ name: 'note', type: 'text' }] });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      name: 'scratch',
      columns: [{ name: 'note', type: 'text', nullable: true, unique: false }],
      indexes: [],
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const got = await gw('/storage/data-tables/contacts', { headers: withKey(a.test_key) });
    expect(got.body).toMatchObject({
      name: 'contacts',
      columns: [{ name: 'email', type: 'text', nullable: false, unique: true }, { name: 'score', type: 'number', nullable: true, unique: false }, {}, {}, {}],
      indexes: [['active', 'score']],
    });
    const page = await gw('/storage/data-tables?limit=1', { headers: withKey(a.test_key) });
    expect(page.body.data?.map((t) => t.name)).toEqual(['contacts']);
    const rest = await gw(`/storage/data-tables?limit=1&cursor=${String(page.body.next_cursor)}`, { headers: withKey(a.test_key) });
    expect(rest.body.data?.map((t) => t.name)).toEqual(['scratch']);
    expect((await post(a.test_key, '/storage/data-tables', { name: 'scratch', columns: [{ name: 'x', type: 'text' }] })).status).toBe(409);
    expect((await gw('/storage/data-tables/scratch', { method: 'DELETE', headers: withKey(a.test_key) })).status).toBe(204);
    expect((await gw('/storage/data-tables/scratch', { headers: withKey(a.test_key) })).status).toBe(404);
    expect((await post(a.test_key, '/storage/data-tables/scratch/rows', { note: 'x' })).status).toBe(404);
  });

  it('inserts one row or many, lists with filters and cursors, changes and deletes rows', async () => {
    const one = await post(a.test_key, '/storage/data-tables/contacts/rows', {
      email: 'ann@a.test',
      score: 9.5,
      active: true,
      seen_at: '2026-11-22T10:00:00+01:00',
      profile: { tags: ['vip'] },
    });
    expect(one.status).toBe(201);
    expect(one.body).toEqual({
      id: expect.any(String),
      email: 'ann@a.test',
      score: 9.5,
      active: true,
      seen_at: '2026-11-22T09:00:00.000Z',
      profile: { tags: ['vip'] },
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const bulk = await post(a.test_key, '/storage/data-tables/contacts/rows', {
      rows: Array.from({ length: 5 }, (_, i) => ({ email: `p${i}@a.test`, score: i, active: i % 2 === 0 })),
    });
    expect(bulk.status).toBe(201);
    expect(bulk.body.rows?.map((r) => r.email)).toEqual(['p0@a.test', 'p1@a.test', 'p2@a.test', 'p3@a.test', 'p4@a.test']);

    const active = await gw('/storage/data-tables/contacts/rows?active=true&limit=2', { headers: withKey(a.test_key) });
    expect(active.body.data?.map((r) => r.email)).toEqual(['ann@a.test', 'p0@a.test']);
    const more = await gw(`/storage/data-tables/contacts/rows?active=true&limit=2&cursor=${String(active.body.next_cursor)}`, { headers: withKey(a.test_key) });
    expect(more.body).toMatchObject({ data: [{ email: 'p2@a.test' }, { email: 'p4@a.test' }], next_cursor: null });
    expect((await gw('/storage/data-tables/contacts/rows?score=3', { headers: withKey(a.test_key) })).body.data?.map((r) => r.email)).toEqual(['p3@a.test']);
    expect(
      (await gw(`/storage/data-tables/contacts/rows?profile=${encodeURIComponent('{"tags":["vip"]}')}`, { headers: withKey(a.test_key) })).body.data,
    ).toHaveLength(1);
    expect((await gw(`/storage/data-tables/contacts/rows?email=${encodeURIComponent("x' or '1'='1")}`, { headers: withKey(a.test_key) })).body.data).toEqual(
      [],
    );

    const id = one.body.id as string;
    const patched = await gw(`/storage/data-tables/contacts/rows/${id}`, { method: 'PATCH', headers: withKey(a.test_key), body: { score: 10, profile: null } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ id, email: 'ann@a.test', score: 10, profile: null });
    expect(patched.body.updated_at).not.toBe(one.body.updated_at);
    expect((await gw(`/storage/data-tables/contacts/rows/${id}`, { method: 'DELETE', headers: withKey(a.test_key) })).status).toBe(204);
    expect((await gw(`/storage/data-tables/contacts/rows/${id}`, { method: 'DELETE', headers: withKey(a.test_key) })).status).toBe(404);
    expect((await gw(`/storage/data-tables/contacts/rows/${id}`, { method: 'PATCH', headers: withKey(a.test_key), body: { score: 1 } })).status).toBe(404);
  });

  it('answers 409 when a unique column would repeat, naming the column', async () => {
    await post(a.test_key, '/storage/data-tables/contacts/rows', { email: 'dup@a.test' });
    const dup = await post(a.test_key, '/storage/data-tables/contacts/rows', { email: 'dup@a.test' });
    expect(dup.status).toBe(409);
    expect(dup.body.message).toContain("'email'");
    const inBulk = await post(a.test_key, '/storage/data-tables/contacts/rows', { rows: [{ email: 'new@a.test' }, { email: 'dup@a.test' }] });
    expect(inBulk.status).toBe(409);
    expect((await gw('/storage/data-tables/contacts/rows?email=new%40a.test', { headers: withKey(a.test_key) })).body.data).toEqual([]);
    // Another tenant has its own unique space.
    expect((await post(b.test_key, '/storage/data-tables/contacts/rows', { email: 'dup@a.test' })).status).toBe(201);
  });

  describe('isolation', () => {
    it("hides tenant A's tables and rows from tenant B (404), even by id", async () => {
      await post(a.test_key, '/storage/data-tables', { name: 'a_private', columns: [{ name: 'x', type: 'text' }] });
      const row = await post(a.test_key, '/storage/data-tables/contacts/rows', { email: 'hidden@a.test' });
      const id = row.body.id as string;
      expect((await gw('/storage/data-tables/a_private', { headers: withKey(b.test_key) })).status).toBe(404);
      expect((await gw('/storage/data-tables/a_private/rows', { headers: withKey(b.test_key) })).status).toBe(404);
      expect((await post(b.test_key, '/storage/data-tables/a_private/rows', { x: 'y' })).status).toBe(404);
      expect((await gw('/storage/data-tables/a_private', { method: 'DELETE', headers: withKey(b.test_key) })).status).toBe(404);
      expect((await gw('/storage/data-tables', { headers: withKey(b.test_key) })).body.data?.map((t) => t.name)).not.toContain('a_private');
      // B's own `contacts` is another table: A's row id is not in it.
      expect((await gw(`/storage/data-tables/contacts/rows/${id}`, { method: 'PATCH', headers: withKey(b.test_key), body: { score: 1 } })).status).toBe(404);
      expect((await gw(`/storage/data-tables/contacts/rows/${id}`, { method: 'DELETE', headers: withKey(b.test_key) })).status).toBe(404);
      expect((await gw(`/storage/data-tables/contacts/rows?id=${id}`, { headers: withKey(b.test_key) })).body.data).toEqual([]);
      expect((await gw(`/storage/data-tables/contacts/rows?id=${id}`, { headers: withKey(a.test_key) })).body.data).toHaveLength(1);
    });

    it('keeps production rows away from a test key', async () => {
      expect((await post(a.live_key, '/storage/data-tables', { name: 'live_orders', columns: [{ name: 'total', type: 'number' }] })).status).toBe(201);
      expect((await post(a.live_key, '/storage/data-tables/live_orders/rows', { total: 99 })).status).toBe(201);
      expect((await gw('/storage/data-tables/live_orders/rows', { headers: withKey(a.test_key) })).status).toBe(404);
      const query = await post(a.test_key, '/v1/data/query', { query: 'select * from live_orders' });
      expect(query.status).toBe(400);
      expect(query.body.message).toMatch(/unknown table 'live_orders'/);
      expect((await post(a.live_key, '/v1/data/query', { query: 'select total from live_orders' })).body.rows).toEqual([{ total: 99 }]);
    });

    it("gives a customer key only its customer's rows, and no say over table definitions", async () => {
      await post(a.test_key, '/storage/data-tables', { name: 'tickets', columns: [{ name: 'subject', type: 'text' }] });
      await post(a.test_key, '/storage/data-tables/tickets/rows', { subject: 'tenant-wide' });
      const [c1, c2] = await Promise.all(['Globex', 'Initech'].map(async (name) => (await post(a.test_key, '/portal/customers', { name })).body.id as string));
      const keyOf = async (customer: string) =>
        (
          await post(a.test_key, '/account/api-keys', {
            name: `k-${customer}`,
            type: 'customer',
            customer_id: customer,
            scopes: ['data:read', 'data:write'],
            data_plane_id: a.sandbox_data_plane_id,
          })
        ).body.key as string;
      const [k1, k2] = await Promise.all([keyOf(c1), keyOf(c2)]);
      const mine = await post(k1, '/storage/data-tables/tickets/rows', { subject: 'globex' });
      expect(mine.status).toBe(201);
      await post(k2, '/storage/data-tables/tickets/rows', { subject: 'initech' });
      expect((await gw('/storage/data-tables/tickets/rows', { headers: withKey(k1) })).body.data?.map((r) => r.subject)).toEqual(['globex']);
      expect((await post(k1, '/v1/data/query', { query: 'select subject from tickets order by subject' })).body.rows).toEqual([{ subject: 'globex' }]);
      expect((await post(a.test_key, '/v1/data/query', { query: 'select count(*) as n from tickets' })).body.rows).toEqual([{ n: 3 }]);
      const tenantRow = (await gw('/storage/data-tables/tickets/rows?subject=tenant-wide', { headers: withKey(a.test_key) })).body.data![0];
      expect(
        (await gw(`/storage/data-tables/tickets/rows/${String(tenantRow.id)}`, { method: 'PATCH', headers: withKey(k2), body: { subject: 'x' } })).status,
      ).toBe(404);
      expect((await gw(`/storage/data-tables/tickets/rows/${String(mine.body.id)}`, { method: 'DELETE', headers: withKey(k2) })).status).toBe(404);
      expect((await post(k1, '/storage/data-tables', { name: 'mine', columns: [{ name: 'x', type: 'text' }] })).status).toBe(403);
      expect((await gw('/storage/data-tables/tickets', { method: 'DELETE', headers: withKey(k1) })).status).toBe(403);
      expect((await gw('/storage/data-tables/tickets', { headers: withKey(k1) })).status).toBe(200);
    });

    it('needs data:write to write and data:read to read', async () => {
      const reader = (
        await post(a.test_key, '/account/api-keys', { name: 'reader', type: 'tenant', scopes: ['data:read'], data_plane_id: a.sandbox_data_plane_id })
      ).body.key as string;
      expect((await gw('/storage/data-tables/contacts/rows', { headers: withKey(reader) })).status).toBe(200);
      expect((await post(reader, '/storage/data-tables/contacts/rows', { email: 'r@a.test' })).status).toBe(403);
      expect((await post(reader, '/storage/data-tables', { name: 'nope', columns: [{ name: 'x', type: 'text' }] })).status).toBe(403);
      const writer = (
        await post(a.test_key, '/account/api-keys', { name: 'writer', type: 'tenant', scopes: ['data:write'], data_plane_id: a.sandbox_data_plane_id })
      ).body.key as string;
      expect((await post(writer, '/v1/data/query', { query: 'select 1' })).status).toBe(403);
    });
  });

  describe('workflow steps over NATS', () => {
    it('inserts, updates, queries and deletes with the tenant and scope from the envelope', async () => {
      const inserted = await bus.request(StorageSubjects.dataInsert, { table: 'contacts', rows: [{ email: 'step@a.test', score: 1 }] }, context(a));
      expect(inserted.rows).toEqual([expect.objectContaining({ email: 'step@a.test', score: 1 })]);
      const id = inserted.rows[0].id as string;
      const updated = await bus.request(StorageSubjects.dataUpdate, { table: 'contacts', id, values: { score: 2 } }, context(a));
      expect(updated.rows[0]).toMatchObject({ id, score: 2 });
      const queried = await bus.request(
        StorageSubjects.dataQuery,
        { query: 'select email, score from contacts where email = $1', params: ['step@a.test'] },
        context(a),
      );
      expect(queried).toEqual({
        columns: [
          { name: 'email', type: 'text' },
          { name: 'score', type: 'number' },
        ],
        rows: [{ email: 'step@a.test', score: 2 }],
        row_count: 1,
        truncated: false,
      });
      // Another tenant's step sees nothing of it.
      expect(
        (await bus.request(StorageSubjects.dataQuery, { query: "select count(*) as n from contacts where email = 'step@a.test'" }, context(b))).rows,
      ).toEqual([{ n: 0 }]);
      const deleted = await bus.request(StorageSubjects.dataDelete, { table: 'contacts', id }, context(a));
      expect(deleted.rows[0]).toMatchObject({ id });
      const remote = (p: Promise<unknown>) =>
        p.then(
          () => undefined,
          (e: unknown) => (e as BusError).remote,
        );
      expect(await remote(bus.request(StorageSubjects.dataDelete, { table: 'contacts', id }, context(b)))).toMatchObject({ status: 404 });
      expect(await remote(bus.request(StorageSubjects.dataInsert, { table: 'contacts', rows: [{ score: 'x' }] }, context(a)))).toMatchObject({ status: 400 });
      expect(await remote(bus.request(StorageSubjects.dataQuery, { query: 'select pg_sleep(1)' }, context(a)))).toMatchObject({ status: 400 });
      expect(await remote(bus.request(StorageSubjects.dataQuery, { query: 'select 1' }, { requestId: randomUUID() }))).toMatchObject({
        status: 400,
        code: 'tenant_required',
      });
    });
  });

  describe('bad input', () => {
    it.each([
      [{ name: 'Orders', columns: [{ name: 'x', type: 'text' }] }, 'name'],
      [{ name: 'select', columns: [{ name: 'x', type: 'text' }] }, 'name'],
      [{ name: 'workflows', columns: [{ name: 'x', type: 'text' }] }, 'name'],
      [{ name: 'pg_things', columns: [{ name: 'x', type: 'text' }] }, 'name'],
      [{ name: 'ok' }, 'columns'],
      [{ name: 'ok', columns: [] }, 'columns'],
      [{ name: 'ok', columns: [{ name: 'x', type: 'int' }] }, 'columns[0].type'],
      [{ name: 'ok', columns: [{ name: 'x', type: 'text', nullable: 'no' }] }, 'columns[0].nullable'],
      [{ name: 'ok', columns: [{ name: 'x', type: 'text', size: 3 }] }, 'columns[0].size'],
      [{ name: 'ok', columns: [{ name: 'id', type: 'text' }] }, 'columns[0].name'],
      [{ name: 'ok', columns: [{ name: 'from', type: 'text' }] }, 'columns[0].name'],
      [
        {
          name: 'ok',
          columns: [
            { name: 'x', type: 'text' },
            { name: 'x', type: 'number' },
          ],
        },
        'columns[1].name',
      ],
      [{ name: 'ok', columns: [{ name: 'x', type: 'text' }], indexes: [['y']] }, 'indexes[0][0]'],
      [{ name: 'ok', columns: [{ name: 'x', type: 'text' }], indexes: 'x' }, 'indexes'],
      [{ name: 'ok', columns: [{ name: 'x', type: 'text' }], extra: 1 }, 'extra'],
    ])('answers 400 naming the field for table %j', async (body, field) => {
      const res = await post(a.test_key, '/storage/data-tables', body);
      expect(res.status).toBe(400);
      expect(res.body.details?.map((d) => d.field)).toContain(field);
    });

    it.each([
      [{ email: 5 }, 'email'],
      [{ email: null }, 'email'],
      [{ score: 1 }, 'email'],
      [{ email: 'e@a.test', score: 'high' }, 'score'],
      [{ email: 'e@a.test', active: 'yes' }, 'active'],
      [{ email: 'e@a.test', seen_at: 'yesterday' }, 'seen_at'],
      [{ email: 'e@a.test', nope: 1 }, 'nope'],
      [{ email: 'e@a.test', id: randomUUID() }, 'id'],
      [{ rows: 'all' }, 'rows'],
      [{ rows: [] }, 'rows'],
      [{ rows: [{ email: 'ok@a.test' }, { email: 1 }] }, 'rows[1].email'],
      [{ rows: [{ email: 'ok@a.test' }], extra: 1 }, 'extra'],
      [[1, 2], 'body'],
    ])('answers 400 naming the field for row %j', async (body, field) => {
      const res = await post(a.test_key, '/storage/data-tables/contacts/rows', body);
      expect(res.status).toBe(400);
      expect(res.body.details?.map((d) => d.field)).toContain(field);
    });

    it('refuses more than 10,000 rows in one insert, and bad ids, filters, limits and cursors', async () => {
      const many = await post(a.test_key, '/storage/data-tables/contacts/rows', { rows: Array.from({ length: 10_001 }, (_, i) => ({ email: `m${i}` })) });
      expect(many.status).toBe(400);
      expect(many.body.details?.[0]).toMatchObject({ field: 'rows' });
      for (const [path, field] of [
        ['/storage/data-tables/contacts/rows?nope=1', 'nope'],
        ['/storage/data-tables/contacts/rows?score=abc', 'score'],
        ['/storage/data-tables/contacts/rows?active=maybe', 'active'],
        ['/storage/data-tables/contacts/rows?limit=0', 'limit'],
        ['/storage/data-tables/contacts/rows?limit=201', 'limit'],
        ['/storage/data-tables/contacts/rows?score=1&score=2', 'score'],
        ['/storage/data-tables/contacts/rows?cursor=garbage', 'cursor'],
        ['/storage/data-tables/contacts/rows?id=nope', 'id'],
        ['/storage/data-tables/Bad-Name', 'name'],
        ['/storage/data-tables/Bad-Name/rows', 'name'],
      ]) {
        const res = await gw(path, { headers: withKey(a.test_key) });
        expect({ path, status: res.status, fields: res.body.details?.map((d) => d.field) }).toEqual({
          path,
          status: 400,
          fields: expect.arrayContaining([field]),
        });
      }
      expect((await gw('/storage/data-tables/contacts/rows/not-a-uuid', { method: 'PATCH', headers: withKey(a.test_key), body: { score: 1 } })).status).toBe(
        400,
      );
      expect((await gw(`/storage/data-tables/contacts/rows/${randomUUID()}`, { method: 'PATCH', headers: withKey(a.test_key), body: {} })).status).toBe(400);
      expect((await gw('/storage/data-tables/contacts/rows', { headers: withKey(a.test_key, { 'content-type': 'text/csv' }), body: 'email\nx' })).status).toBe(
        415,
      );
    });
  });
});
