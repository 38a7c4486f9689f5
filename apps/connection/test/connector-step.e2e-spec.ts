import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import type { TestTenant } from '@platform/testing';
import { PrivatePlatform, type Json } from './private-platform.js';
import { GITHUB_TOKEN, StandIns, STRIPE_KEY } from './stand-ins.js';

const p = new PrivatePlatform();
const stand = new StandIns();
let a: TestTenant;
let b: TestTenant;
const tag = randomBytes(3).toString('hex');
const tokens = { one: `xoxb-customer-one-${tag}`, two: `xoxb-customer-two-${tag}` };
const dbName = `conn_pg_${tag}`;
const dbRole = `conn_pg_role_${tag}`;
const dbPassword = `pw-${randomBytes(8).toString('hex')}`;
const smtpPassword = `smtp-${randomBytes(8).toString('hex')}`;

const connection = async (tenant: TestTenant, body: Record<string, unknown>, customer?: string): Promise<string> => {
  const res = await p.gw('/connections', { headers: p.as(tenant.test_key, customer ? { 'x-scope-key': customer } : {}), body });
  if (res.status !== 201) throw new Error(`connection not created: ${res.status} ${res.text}`);
  return res.body.id as string;
};
const step = (input: Record<string, unknown>) => ({ id: 'call', type: 'connector', input });
const errorOf = (run: Json) => run.error as Json;

async function admin<T>(database: string, work: (c: pg.Client) => Promise<T>): Promise<T> {
  const s = p.database.settings.admin;
  const client = new pg.Client({ host: s.host, port: s.port, user: s.user, password: s.password, database });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  await stand.start();
  await p.start('connector-step');
  [a, b] = await Promise.all([p.tenant('step-a'), p.tenant('step-b')]);
  await admin('postgres', async (c) => {
    await c.query(`create role ${dbRole} login password '${dbPassword}'`);
    await c.query(`create database ${dbName}`);
  });
  await admin(dbName, async (c) => {
    await c.query(`create table orders (id int primary key, customer text, total numeric)`);
    await c.query(`insert into orders values (1, 'ada', 10.5), (2, 'bob', 99), (3, 'ada', 7)`);
    await c.query(`grant select on orders to ${dbRole}`);
  });
}, 120_000);

afterAll(async () => {
  await admin('postgres', async (c) => {
    await c.query(`drop database if exists ${dbName} with (force)`);
    await c.query(`drop role if exists ${dbRole}`);
  }).catch(() => undefined);
  await p.stop();
  stand.stop();
});

describe('the connector step', () => {
  it('serves every customer with its own credentials from one workflow (customer_connection)', async () => {
    const [c1, c2] = await Promise.all([p.customer(a, 'one'), p.customer(a, 'two')]);
    await connection(a, { name: 'one', connector_id: 'slack', auth: { type: 'bearer', token: tokens.one }, settings: { base_url: `${stand.base}/slack` } }, c1);
    await connection(a, { name: 'two', connector_id: 'slack', auth: { type: 'bearer', token: tokens.two }, settings: { base_url: `${stand.base}/slack` } }, c2);
    const wf = await p.workflow(a, [
      step({ customer_connection: 'slack', operation: 'post_message', params: { channel: '#orders', text: '{% "order " & input.order %}' } }),
    ]);

    const run1 = await p.run(a, wf, c1, { order: 'A-1' });
    const run2 = await p.run(a, wf, c2, { order: 'B-2' });
    expect(run1).toMatchObject({ status: 'succeeded', output: { status: 200, data: { ok: true, channel: '#orders' } } });
    expect(run2.status).toBe('succeeded');
    const posts = stand.to('/slack/chat.postMessage').map((r) => [r.authorization, (JSON.parse(r.body) as Json).text]);
    expect(posts).toEqual([
      [`Bearer ${tokens.one}`, 'order A-1'],
      [`Bearer ${tokens.two}`, 'order B-2'],
    ]);

    // A run of the tenant itself has no customer to resolve.
    const tenantRun = await p.run(a, wf);
    expect([tenantRun.status, errorOf(tenantRun).code]).toEqual(['failed', 'no_customer']);
  });

  it("cannot use another customer's or another tenant's connection (not found, nothing sent)", async () => {
    const [c1, c2] = await Promise.all([p.customer(a, 'iso-1'), p.customer(a, 'iso-2')]);
    const c1Conn = await connection(
      a,
      { name: 'c1 gh', connector_id: 'github', auth: { type: 'bearer', token: GITHUB_TOKEN }, settings: { base_url: `${stand.base}/github` } },
      c1,
    );
    const sent = stand.requests.length;
    const wf = await p.workflow(a, [step({ connection_id: c1Conn, operation: 'get_authenticated_user' })]);
    expect((await p.run(a, wf, c1)).status).toBe('succeeded');
    const other = await p.run(a, wf, c2);
    expect([other.status, errorOf(other).code]).toEqual(['failed', 'not_found']);
    const foreignWf = await p.workflow(b, [step({ connection_id: c1Conn, operation: 'get_authenticated_user' })]);
    const foreign = await p.run(b, foreignWf);
    expect([foreign.status, errorOf(foreign).code]).toEqual(['failed', 'not_found']);
    expect(stand.requests.length).toBe(sent + 1);
  });

  it('checks the input against the operation schema, at run time, naming the field', async () => {
    const id = await connection(a, {
      name: 'gh',
      connector_id: 'github',
      auth: { type: 'bearer', token: GITHUB_TOKEN },
      settings: { base_url: `${stand.base}/github` },
    });
    const sent = stand.requests.length;
    const wf = await p.workflow(a, [step({ connection_id: id, operation: 'create_issue', params: { owner: 'acme', repo: 'api', title: 7 } })]);
    const run = await p.run(a, wf);
    expect([run.status, errorOf(run).code]).toEqual(['failed', 'validation_failed']);
    expect(errorOf(run).message).toContain('input.title');
    expect(stand.requests.length).toBe(sent);

    const unknownOp = await p.run(a, await p.workflow(a, [step({ connection_id: id, operation: 'drop_everything' })]));
    expect(errorOf(unknownOp).message).toContain('drop_everything is not an operation of github');

    const bad = await p.gw('/api/v1/workflow/workflows', { headers: p.as(a.test_key), body: { name: 'bad', steps: [step({ operation: 'x' })] } });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('input.connection_id');
  });

  it('retries a retryable status, waiting the remote Retry-After', async () => {
    const id = await connection(a, {
      name: 'gh',
      connector_id: 'github',
      auth: { type: 'bearer', token: GITHUB_TOKEN },
      settings: { base_url: `${stand.base}/github` },
    });
    const wf = await p.workflow(a, [step({ connection_id: id, operation: 'create_issue', params: { owner: 'acme', repo: 'limited', title: 'Flaky' } })]);
    const run = await p.run(a, wf);
    expect(run).toMatchObject({ status: 'succeeded', output: { status: 201, data: { number: 42 } } });
    const calls = stand.to('/github/repos/acme/limited/issues');
    expect(calls).toHaveLength(2);
    expect(calls[1].at - calls[0].at).toBeGreaterThanOrEqual(950);
  });

  it('does not retry a refusal, and fails with the remote message', async () => {
    const id = await connection(a, {
      name: 'gh bad',
      connector_id: 'github',
      auth: { type: 'bearer', token: 'ghp_not_valid' },
      settings: { base_url: `${stand.base}/github` },
    });
    const before = stand.to('/github/user').length;
    const run = await p.run(a, await p.workflow(a, [step({ connection_id: id, operation: 'get_authenticated_user' })]));
    expect([run.status, errorOf(run).code, errorOf(run).message]).toEqual(['failed', 'connector_error', 'call: Bad credentials']);
    expect(stand.to('/github/user').length).toBe(before + 1);
  });

  it('sends Stripe form-encoded bodies with nested metadata', async () => {
    const id = await connection(a, {
      name: 'stripe',
      connector_id: 'stripe',
      auth: { type: 'bearer', token: STRIPE_KEY },
      settings: { base_url: `${stand.base}/stripe` },
    });
    const run = await p.run(
      a,
      await p.workflow(a, [step({ connection_id: id, operation: 'create_customer', params: { email: 'ada@example.com', metadata: { plan: 'pro' } } })]),
    );
    expect(run).toMatchObject({ status: 'succeeded', output: { data: { id: 'cus_Q1' } } });
    const sent = stand.to('/stripe/customers').at(-1)!;
    expect([sent.contentType, sent.authorization]).toEqual(['application/x-www-form-urlencoded', `Bearer ${STRIPE_KEY}`]);
    expect(new URLSearchParams(sent.body).get('metadata[plan]')).toBe('pro');
    expect(sent.idempotencyKey).toMatch(new RegExp(`^run:${run.id as string}:call:`));
  });

  it('runs parameterised queries on PostgreSQL, and reports a bad statement', async () => {
    const s = p.database.settings.admin;
    const id = await connection(a, {
      name: 'orders db',
      connector_id: 'postgresql',
      auth: { type: 'basic', username: dbRole, password: dbPassword },
      settings: { host: s.host, port: s.port, database: dbName, ssl: 'disable' },
    });
    expect((await p.gw(`/connections/${id}/test`, { method: 'POST', headers: p.as(a.test_key) })).body).toEqual({ ok: true });
    const run = await p.run(
      a,
      await p.workflow(a, [
        step({
          connection_id: id,
          operation: 'query',
          params: { sql: 'select id, total from orders where customer = $1 order by id', params: ['{% input.who %}'] },
        }),
      ]),
      undefined,
      { who: 'ada' },
    );
    expect(run).toMatchObject({
      status: 'succeeded',
      output: {
        status: 200,
        data: {
          rows: [
            { id: 1, total: '10.5' },
            { id: 3, total: '7' },
          ],
          row_count: 2,
          truncated: false,
        },
      },
    });
    const refused = await p.run(a, await p.workflow(a, [step({ connection_id: id, operation: 'query', params: { sql: 'delete from orders' } })]));
    expect([refused.status, errorOf(refused).code]).toEqual(['failed', 'connector_error']);
    expect(errorOf(refused).message).toContain('permission denied');
    expect(await admin(dbName, async (c) => (await c.query<{ n: number }>('select count(*)::int as n from orders')).rows[0])).toEqual({ n: 3 });
  });

  it('instantiates a template into a workflow that serves each customer with its own connection, or a pinned one', async () => {
    const list = await p.gw('/catalog/templates?connector=slack', { headers: p.as(a.test_key) });
    expect(list.body.data!.map((t) => t.id)).toEqual(['github-issue-to-slack', 'slack-message']);
    const customer = await p.customer(a, 'tpl');
    const token = `xoxb-customer-tpl-${tag}`;
    await connection(a, { name: 'tpl', connector_id: 'slack', auth: { type: 'bearer', token }, settings: { base_url: `${stand.base}/slack` } }, customer);
    const made = await p.gw('/catalog/templates/slack-message/instantiate', { headers: p.as(a.test_key), body: { name: 'From the template' } });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ name: 'From the template', version: 1 });
    const run = await p.run(a, made.body.id as string, customer, { channel: '#tpl', text: 'hi' });
    expect(run.status).toBe('succeeded');
    expect(stand.to('/slack/chat.postMessage').at(-1)!.authorization).toBe(`Bearer ${token}`);

    const tenantConn = await connection(a, {
      name: 'tenant slack',
      connector_id: 'slack',
      auth: { type: 'bearer', token: tokens.one },
      settings: { base_url: `${stand.base}/slack` },
    });
    const pinned = await p.gw('/catalog/templates/slack-message/instantiate', { headers: p.as(a.test_key), body: { connections: { slack: tenantConn } } });
    const steps = (await p.gw(`/api/v1/workflow/workflows/${pinned.body.id as string}`, { headers: p.as(a.test_key) })).body.steps as Json[];
    expect(steps[0].input).toMatchObject({ connection_id: tenantConn, operation: 'post_message' });
    expect((await p.run(a, pinned.body.id as string, undefined, { channel: '#x', text: 'pinned' })).status).toBe('succeeded');

    const wrong = await p.gw('/catalog/templates/slack-message/instantiate', { headers: p.as(a.test_key), body: { connections: { github: tenantConn } } });
    expect([wrong.status, (wrong.body.details as Json[])[0].field]).toEqual([400, 'connections.github']);
    expect((await p.gw('/catalog/templates/nope/instantiate', { headers: p.as(a.test_key), body: {} })).status).toBe(404);
  });

  it('installs a marketplace connector into one environment only, and counts installs', async () => {
    const browse = await p.gw('/catalog/marketplace?kind=connector&q=incident', { headers: p.as(a.test_key) });
    const listing = browse.body.data![0];
    expect(listing).toMatchObject({ slug: 'pagerduty', publisher: 'Platform Labs', version: '1.2.0', installed_version: null });
    const before = listing.installs as number;
    const create = () =>
      p.gw('/connections', {
        headers: p.as(a.test_key),
        body: { name: 'pd', connector_id: 'pagerduty', auth: { type: 'api_key', key: 'pd-key' }, settings: { base_url: `${stand.base}/pd` } },
      });
    expect((await create()).status).toBe(400);

    const installed = await p.gw(`/catalog/marketplace/${listing.id as string}/install`, { method: 'POST', headers: p.as(a.test_key) });
    expect([installed.status, installed.body]).toEqual([201, { listing_id: listing.id, kind: 'connector', connector_id: 'pagerduty', version: '1.2.0' }]);
    expect((await p.gw('/catalog/connectors/pagerduty', { headers: p.as(a.test_key) })).body).toMatchObject({
      source: 'installed',
      publisher: 'Platform Labs',
    });
    expect((await create()).status).toBe(201);
    // Another tenant has not installed it.
    expect((await p.gw('/catalog/connectors/pagerduty', { headers: p.as(b.test_key) })).status).toBe(404);
    const after = (await p.gw('/catalog/marketplace?kind=connector&q=incident', { headers: p.as(a.test_key) })).body.data![0];
    expect(after).toMatchObject({ installs: before + 1, installed_version: '1.2.0' });
    // Installing again upgrades in place and is not counted twice.
    await p.gw(`/catalog/marketplace/${listing.id as string}/install`, { method: 'POST', headers: p.as(a.test_key) });
    expect((await p.gw('/catalog/marketplace?kind=connector&q=incident', { headers: p.as(a.test_key) })).body.data![0].installs).toBe(before + 1);
  });

  it('sends e-mail through SMTP with nodemailer, and reports a refused login', async () => {
    const mails: string[] = [];
    const smtp = new SMTPServer({
      authOptional: false,
      allowInsecureAuth: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onAuth: (auth, _session, callback) =>
        auth.username === 'mailer' && auth.password === smtpPassword ? callback(null, { user: 'mailer' }) : callback(new Error('Invalid username or password')),
      onData: (stream, _session, callback) => {
        let raw = '';
        stream.on('data', (c: Buffer) => (raw += c.toString('utf8')));
        stream.on('end', () => {
          mails.push(raw);
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    try {
      const settings = { host: '127.0.0.1', port: (smtp.server.address() as { port: number }).port, security: 'none', from: 'bot@acme.test' };
      const id = await connection(a, { name: 'mail', connector_id: 'smtp', settings, auth: { type: 'basic', username: 'mailer', password: smtpPassword } });
      expect((await p.gw(`/connections/${id}/test`, { method: 'POST', headers: p.as(a.test_key) })).body).toEqual({ ok: true });
      const run = await p.run(
        a,
        await p.workflow(a, [
          step({ connection_id: id, operation: 'send_email', params: { to: 'ada@example.com', subject: 'Hello', text: 'From a workflow' } }),
        ]),
      );
      expect(run).toMatchObject({ status: 'succeeded', output: { data: { accepted: ['ada@example.com'] } } });
      expect(mails.at(-1)).toContain('Subject: Hello');
      const wrong = await connection(a, { name: 'bad mail', connector_id: 'smtp', settings, auth: { type: 'basic', username: 'mailer', password: 'nope' } });
      expect((await p.gw(`/connections/${wrong}/test`, { method: 'POST', headers: p.as(a.test_key) })).body).toMatchObject({ ok: false, status: 535 });
    } finally {
      smtp.close();
    }
  });

  it('keeps every credential out of responses, execution records and logs', () => {
    expect(p.leaks([tokens.one, tokens.two, GITHUB_TOKEN, STRIPE_KEY, dbPassword, smtpPassword, 'ghp_not_valid'])).toEqual([]);
    expect(stand.requests.some((r) => r.authorization === `Bearer ${tokens.one}`)).toBe(true);
  });
});
