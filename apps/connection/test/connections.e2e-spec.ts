import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { TestTenant } from '@platform/testing';
import { PrivatePlatform, type Json } from './private-platform.js';
import { GITHUB_TOKEN, SLACK_TOKEN, STRIPE_KEY, StandIns } from './stand-ins.js';

const p = new PrivatePlatform();
const stand = new StandIns();
let a: TestTenant;
let b: TestTenant;

beforeAll(async () => {
  await stand.start();
  await p.start('connections');
  [a, b] = await Promise.all([p.tenant('conn-a'), p.tenant('conn-b')]);
}, 120_000);

afterAll(async () => {
  await p.stop();
  stand.stop();
});

const create = (tenant: TestTenant, body: Record<string, unknown>, extra: Record<string, string> = {}) =>
  p.gw('/connections', { headers: p.as(tenant.test_key, extra), body });

describe('connector catalog', () => {
  it('lists the built-in connectors, searches and filters them, a page at a time', async () => {
    const all = await p.gw('/catalog/connectors?limit=200', { headers: p.as(a.test_key) });
    expect(all.status).toBe(200);
    const ids = all.body.data!.map((c) => c.id);
    expect(ids).toEqual(expect.arrayContaining(['http', 'slack', 'microsoft-teams', 'github', 'google-sheets', 'stripe', 'postgresql', 'smtp', 'openai']));
    expect(all.body.data!.find((c) => c.id === 'slack')).toMatchObject({
      source: 'built_in',
      auth_types: ['bearer', 'oauth2_code'],
      categories: ['communication'],
    });

    const comms = await p.gw('/catalog/connectors?category=communication', { headers: p.as(a.test_key) });
    expect(comms.body.data!.map((c) => c.id).sort()).toEqual(['microsoft-teams', 'slack', 'smtp']);
    const search = await p.gw('/catalog/connectors?q=issue', { headers: p.as(a.test_key) });
    expect(search.body.data!.map((c) => c.id)).toEqual(['github']);

    const first = await p.gw('/catalog/connectors?limit=4', { headers: p.as(a.test_key) });
    expect(first.body.data).toHaveLength(4);
    const second = await p.gw(`/catalog/connectors?limit=200&cursor=${first.body.next_cursor as string}`, { headers: p.as(a.test_key) });
    expect([...first.body.data!, ...second.body.data!].map((c) => c.id)).toEqual(ids);
    expect(second.body.next_cursor).toBeNull();
  });

  it('answers one connector with its operations and their JSON Schemas; an unknown one is 404', async () => {
    const slack = await p.gw('/catalog/connectors/slack', { headers: p.as(a.test_key) });
    expect(slack.status).toBe(200);
    const post = (slack.body.operations as Json[]).find((o) => o.id === 'post_message')!;
    expect(post.input_schema).toMatchObject({ type: 'object', required: ['channel', 'text'] });
    expect(slack.body).toMatchObject({ base_url: 'https://slack.com/api', test_operation: { operation: 'auth_test' } });
    const unknown = await p.gw('/catalog/connectors/nope', { headers: p.as(a.test_key) });
    expect(unknown.status).toBe(404);
  });
});

describe('custom connectors', () => {
  const definition = () => ({
    id: 'acme-crm',
    name: 'Acme CRM',
    version: '0.1.0',
    description: 'Our own CRM',
    categories: ['crm'],
    icon: 'https://acme.test/icon.svg',
    publisher: 'Acme',
    auth: [{ type: 'bearer', prefix: 'Bearer ' }],
    base_url: `${stand.base}/github`,
    settings_schema: { type: 'object' },
    driver: 'http',
    operations: [
      { id: 'whoami', name: 'Who am I', description: 'The user', input_schema: { type: 'object' }, output_schema: {}, http: { method: 'GET', path: '/user' } },
    ],
    test_operation: { operation: 'whoami', input: {} },
  });

  it('checks a definition against the definition JSON Schema, then serves it to this environment only', async () => {
    const bad = await p.gw('/catalog/connectors', {
      method: 'PUT',
      headers: p.as(a.test_key),
      body: { ...definition(), version: 'one', driver: 'ftp', test_operation: { operation: 'nope', input: {} } },
    });
    expect(bad.status).toBe(400);
    expect((bad.body.details as Json[]).map((d) => d.field)).toEqual(expect.arrayContaining(['version', 'driver']));
    const taken = await p.gw('/catalog/connectors', { method: 'PUT', headers: p.as(a.test_key), body: { ...definition(), id: 'slack' } });
    expect(taken.status).toBe(409);

    const saved = await p.gw('/catalog/connectors', { method: 'PUT', headers: p.as(a.test_key), body: definition() });
    expect(saved.body).toMatchObject({ id: 'acme-crm', source: 'custom', operation_ids: ['whoami'] });
    const made = await create(a, { name: 'crm', connector_id: 'acme-crm', auth: { type: 'bearer', token: GITHUB_TOKEN } });
    expect((await p.gw(`/connections/${made.body.id as string}/test`, { method: 'POST', headers: p.as(a.test_key) })).body).toEqual({ ok: true });
    expect((await p.gw('/catalog/connectors/acme-crm', { headers: p.as(b.test_key) })).status).toBe(404);
    expect((await create(b, { name: 'crm', connector_id: 'acme-crm', auth: { type: 'bearer', token: 'x' } })).status).toBe(400);

    expect((await p.gw('/catalog/connectors/slack', { method: 'DELETE', headers: p.as(a.test_key) })).status).toBe(409);
    expect((await p.gw('/catalog/connectors/acme-crm', { method: 'DELETE', headers: p.as(a.test_key) })).status).toBe(204);
    expect((await p.gw('/catalog/connectors/acme-crm', { headers: p.as(a.test_key) })).status).toBe(404);
  });
});

describe('connections', () => {
  it('creates a connection without ever returning its secret, and tests it against the remote side', async () => {
    const made = await create(a, {
      name: 'Acme Slack',
      connector_id: 'slack',
      auth: { type: 'bearer', token: SLACK_TOKEN },
      settings: { base_url: `${stand.base}/slack` },
    });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ connector_id: 'slack', customer_id: null, auth: { type: 'bearer' }, credentials: ['token'], status: 'active' });
    const id = made.body.id as string;

    const tested = await p.gw(`/connections/${id}/test`, { headers: p.as(a.test_key), method: 'POST' });
    expect(tested.body).toEqual({ ok: true });
    const authTest = stand.to('/slack/auth.test').at(-1)!;
    expect([authTest.method, authTest.authorization]).toEqual(['POST', `Bearer ${SLACK_TOKEN}`]);
    expect((await p.gw(`/connections/${id}`, { headers: p.as(a.test_key) })).body).toMatchObject({ last_test_ok: true, last_tested_at: expect.any(String) });

    const ops = await p.gw(`/connections/${id}/operations`, { headers: p.as(a.test_key) });
    expect(ops.body.connector_id).toBe('slack');
    expect(ops.body.data!.map((o) => o.id)).toEqual(['auth_test', 'list_channels', 'post_message']);
    expect(ops.body.next_cursor).toBeNull();
    // Paginated like every list (issue 28): `limit` is honoured and the cursor reads on.
    const first = await p.gw(`/connections/${id}/operations?limit=2`, { headers: p.as(a.test_key) });
    expect([first.body.connector_id, first.body.data!.map((o) => o.id)]).toEqual(['slack', ['auth_test', 'list_channels']]);
    const second = await p.gw(`/connections/${id}/operations?limit=2&cursor=${first.body.next_cursor as string}`, { headers: p.as(a.test_key) });
    expect([second.body.data!.map((o) => o.id), second.body.next_cursor]).toEqual([['post_message'], null]);
    expect((await p.gw(`/connections/${id}/operations?limit=0`, { headers: p.as(a.test_key) })).status).toBe(400);
    expect((await p.gw(`/connections/${id}/operations?cursor=bm9wZQ`, { headers: p.as(a.test_key) })).body.code).toBe('invalid_cursor');
  });

  it('reports what the remote side said when a test fails (Slack ok:false, GitHub 401, Stripe 401)', async () => {
    const slack = await create(a, {
      name: 'bad slack',
      connector_id: 'slack',
      auth: { type: 'bearer', token: 'xoxb-revoked' },
      settings: { base_url: `${stand.base}/slack` },
    });
    expect((await p.gw(`/connections/${slack.body.id as string}/test`, { headers: p.as(a.test_key), method: 'POST' })).body).toEqual({
      ok: false,
      status: 200,
      message: 'invalid_auth',
    });
    const gh = await create(a, {
      name: 'bad gh',
      connector_id: 'github',
      auth: { type: 'bearer', token: 'ghp_wrong' },
      settings: { base_url: `${stand.base}/github` },
    });
    expect((await p.gw(`/connections/${gh.body.id as string}/test`, { headers: p.as(a.test_key), method: 'POST' })).body).toEqual({
      ok: false,
      status: 401,
      message: 'Bad credentials',
    });
    const good = await create(a, {
      name: 'gh',
      connector_id: 'github',
      auth: { type: 'bearer', token: GITHUB_TOKEN },
      settings: { base_url: `${stand.base}/github` },
    });
    expect((await p.gw(`/connections/${good.body.id as string}/test`, { headers: p.as(a.test_key), method: 'POST' })).body).toEqual({ ok: true });
    const stripe = await create(a, {
      name: 'stripe',
      connector_id: 'stripe',
      auth: { type: 'bearer', token: 'sk_test_wrong' },
      settings: { base_url: `${stand.base}/stripe` },
    });
    expect((await p.gw(`/connections/${stripe.body.id as string}/test`, { headers: p.as(a.test_key), method: 'POST' })).body).toMatchObject({
      ok: false,
      status: 401,
      message: expect.stringContaining('Invalid API Key'),
    });
  });

  it('never shows the credentials a remote side echoes back, in any auth scheme, failed or answered', async () => {
    const secrets = {
      token: `tok-${randomBytes(8).toString('hex')}`,
      password: `pw ${randomBytes(6).toString('hex')}/+&`,
      key: `key-${randomBytes(8).toString('hex')}`,
    };
    const auths = [
      { type: 'bearer', token: secrets.token },
      { type: 'basic', username: 'echo-user', password: secrets.password },
      { type: 'api_key', key: secrets.key, in: 'query', name: 'api_key' },
    ];
    for (const auth of auths) {
      const refused = await create(a, { name: `echo ${auth.type}`, connector_id: 'http', auth, settings: { base_url: `${stand.base}/echo` } });
      expect(refused.status).toBe(201);
      const tested = await p.gw(`/connections/${refused.body.id as string}/test`, { headers: p.as(a.test_key), method: 'POST' });
      expect(tested.body).toMatchObject({ ok: false, status: 401, message: expect.stringContaining('[redacted]') });
      const answered = await create(a, { name: `echo-ok ${auth.type}`, connector_id: 'http', auth, settings: { base_url: `${stand.base}/echo-ok` } });
      const wf = await p.workflow(a, [
        { id: 'call', type: 'connector', input: { connection_id: answered.body.id, operation: 'request', params: { path: '/x' } } },
      ]);
      const run = await p.run(a, wf);
      expect(JSON.stringify(run)).toContain('[redacted]');
    }
    // The stand-in did get them: what came back is what was redacted.
    expect(stand.to('/echo').some((r) => r.authorization === `Bearer ${secrets.token}`)).toBe(true);
    expect(p.leaks(Object.values(secrets))).toEqual([]);
  });

  it('refuses bad input with 400 naming the field, and writes nothing', async () => {
    const before = (await p.gw('/connections?limit=200', { headers: p.as(a.test_key) })).body.data!.length;
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ name: 'x', connector_id: 'slack', auth: { type: 'basic', username: 'u', password: 'p' } }, 'auth.type'],
      [{ name: 'x', connector_id: 'slack', auth: { type: 'bearer' } }, 'auth.token'],
      [{ name: 'x', connector_id: 'slack', auth: { type: 'bearer', token: 't', password: 'p' } }, 'auth.password'],
      [{ name: 'x', connector_id: 'nope', auth: { type: 'none' } }, 'connector_id'],
      [{ name: 'x', connector_id: 'http', auth: { type: 'none' } }, 'settings.base_url'],
      [{ name: 'x', connector_id: 'slack', auth: { type: 'bearer', token: 't' }, settings: { base_url: 'ftp://x' } }, 'settings.base_url'],
      [{ name: 'x', connector_id: 'slack', auth: { type: 'bearer', token: 't' }, customer_id: '01937c2e-6a55-7cc1-9a3e-1f2a3b4c5d6e' }, 'customer_id'],
      [{ name: 'x', connector_id: 'slack', auth: { type: 'magic' } }, 'auth.type'],
    ];
    for (const [body, field] of cases) {
      const res = await create(a, body);
      expect([res.status, (res.body.details as Json[] | undefined)?.map((d) => d.field)]).toEqual([400, expect.arrayContaining([field])]);
      expect(res.text).not.toMatch(/at .*\.js:\d+/);
    }
    expect((await p.gw('/connections?limit=200', { headers: p.as(a.test_key) })).body.data).toHaveLength(before);
  });

  it('updates, filters and deletes; a secret left out of an update is kept', async () => {
    const made = await create(a, {
      name: 'stripe main',
      connector_id: 'stripe',
      auth: { type: 'bearer', token: STRIPE_KEY },
      settings: { base_url: `${stand.base}/stripe` },
    });
    const id = made.body.id as string;
    const renamed = await p.gw(`/connections/${id}`, { method: 'PATCH', headers: p.as(a.test_key), body: { name: 'stripe (eu)', auth: { type: 'bearer' } } });
    expect(renamed.body).toMatchObject({ name: 'stripe (eu)', credentials: ['token'] });
    expect((await p.gw(`/connections/${id}/test`, { headers: p.as(a.test_key), method: 'POST' })).body).toEqual({ ok: true });
    const listed = await p.gw('/connections?connector_id=stripe', { headers: p.as(a.test_key) });
    expect(listed.body.data!.map((c) => c.connector_id)).toEqual(listed.body.data!.map(() => 'stripe'));
    expect((await p.gw(`/connections/${id}`, { method: 'DELETE', headers: p.as(a.test_key) })).status).toBe(204);
    expect((await p.gw(`/connections/${id}`, { headers: p.as(a.test_key) })).status).toBe(404);
  });
});

describe('isolation', () => {
  it('another tenant cannot see, change, test or list a connection: 404 identical to an unknown id', async () => {
    const made = await create(a, {
      name: 'secret slack',
      connector_id: 'slack',
      auth: { type: 'bearer', token: SLACK_TOKEN },
      settings: { base_url: `${stand.base}/slack` },
    });
    const id = made.body.id as string;
    const unknown = '01937c2e-6a55-7cc1-9a3e-1f2a3b4c5d6e';
    const probes = (target: string) => [
      p.gw(`/connections/${target}`, { headers: p.as(b.test_key) }),
      p.gw(`/connections/${target}`, { method: 'PATCH', headers: p.as(b.test_key), body: { name: 'mine now' } }),
      p.gw(`/connections/${target}/test`, { method: 'POST', headers: p.as(b.test_key) }),
      p.gw(`/connections/${target}/operations`, { headers: p.as(b.test_key) }),
      p.gw(`/connections/${target}`, { method: 'DELETE', headers: p.as(b.test_key) }),
    ];
    const foreign = await Promise.all(probes(id));
    const none = await Promise.all(probes(unknown));
    const shape = (r: { status: number; body: Json }) => [r.status, r.body.error, r.body.message];
    expect(foreign.map(shape)).toEqual(none.map(shape));
    expect(foreign.map((r) => r.status)).toEqual([404, 404, 404, 404, 404]);
    expect((await p.gw('/connections?limit=200', { headers: p.as(b.test_key) })).body.data!.map((c) => c.id)).not.toContain(id);
    expect((await p.gw(`/connections/${id}`, { headers: p.as(a.test_key) })).body.name).toBe('secret slack');
    // Nor does the tenant's other environment (the live key sees production, the connection is in the sandbox).
    expect((await p.gw(`/connections/${id}`, { headers: p.as(a.live_key) })).status).toBe(404);
  });

  it('a customer cannot see or test another customer’s connection, nor the tenant’s through its API', async () => {
    const [c1, c2] = await Promise.all([p.customer(a, 'cust-1'), p.customer(a, 'cust-2')]);
    const own = await create(
      a,
      { name: 'c1 slack', connector_id: 'slack', auth: { type: 'bearer', token: 'xoxb-customer-one' }, settings: { base_url: `${stand.base}/slack` } },
      { 'x-scope-key': c1 },
    );
    expect(own.body).toMatchObject({ customer_id: c1 });
    const id = own.body.id as string;
    for (const path of [`/connections/${id}`, `/connections/${id}/operations`]) {
      expect((await p.gw(path, { headers: p.as(a.test_key, { 'x-scope-key': c2 }) })).status).toBe(404);
    }
    expect((await p.gw(`/connections/${id}/test`, { method: 'POST', headers: p.as(a.test_key, { 'x-scope-key': c2 }) })).status).toBe(404);
    const listed = await p.gw('/connections?limit=200', { headers: p.as(a.test_key, { 'x-scope-key': c2 }) });
    expect(listed.body.data).toEqual([]);
    expect((await p.gw(`/connections?customer_id=${c1}`, { headers: p.as(a.test_key) })).body.data!.map((c) => c.id)).toEqual([id]);

    // The same with real customer keys: each customer manages its own connections only.
    const scopes = ['connections:read', 'connections:write'];
    const [k1, k2] = await Promise.all([p.customerKey(a, c1, scopes), p.customerKey(a, c2, scopes)]);
    const mine = await create(a, {
      name: 'c2 own',
      connector_id: 'github',
      auth: { type: 'bearer', token: 'ghp_customer_two' },
      settings: { base_url: `${stand.base}/github` },
    });
    expect(mine.body.customer_id).toBeNull(); // made with the tenant key: the tenant's
    const own2 = await p.gw('/connections', {
      headers: p.as(k2),
      body: { name: 'c2', connector_id: 'slack', auth: { type: 'bearer', token: 'xoxb-customer-two' } },
    });
    expect(own2.body).toMatchObject({ customer_id: c2 });
    expect((await p.gw('/connections?limit=200', { headers: p.as(k2) })).body.data!.map((c) => c.id)).toEqual([own2.body.id]);
    for (const target of [id, mine.body.id as string]) {
      const probes = await Promise.all([
        p.gw(`/connections/${target}`, { headers: p.as(k2) }),
        p.gw(`/connections/${target}`, { method: 'PATCH', headers: p.as(k2), body: { name: 'taken' } }),
        p.gw(`/connections/${target}/test`, { method: 'POST', headers: p.as(k2) }),
        p.gw(`/connections/${target}`, { method: 'DELETE', headers: p.as(k2) }),
      ]);
      expect(probes.map((r) => r.status)).toEqual([404, 404, 404, 404]);
    }
    expect((await p.gw(`/connections/${id}`, { headers: p.as(k1) })).body.name).toBe('c1 slack');
    expect((await p.gw(`/connections/${own2.body.id as string}`, { headers: p.as(k1) })).status).toBe(404);
    const foreignCustomer = await p.gw('/connections', {
      headers: p.as(k2),
      body: { name: 'x', connector_id: 'slack', customer_id: c1, auth: { type: 'bearer', token: 't' } },
    });
    expect([foreignCustomer.status, (foreignCustomer.body.details as Json[])[0].field]).toEqual([400, 'customer_id']);
  });
});

describe('credentials', () => {
  it('never appear in any response or log line', () => {
    expect(p.lines.length).toBeGreaterThan(10);
    expect(
      p.leaks([SLACK_TOKEN, GITHUB_TOKEN, STRIPE_KEY, 'xoxb-customer-one', 'xoxb-customer-two', 'ghp_customer_two', 'ghp_wrong', 'sk_test_wrong']),
    ).toEqual([]);
    // The search works: the tokens did reach the stand-ins.
    expect(stand.requests.some((r) => r.authorization === `Bearer ${SLACK_TOKEN}`)).toBe(true);
  });
});
