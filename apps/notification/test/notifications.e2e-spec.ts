import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SecretWatch, call, createTenant, e2eEnvironment, eventually, withKey, type TestTenant } from '@platform/testing';
import { StandIn } from './stand-ins.js';

const env = e2eEnvironment();
type Json = Record<string, unknown> & { data?: Json[]; attempts?: Json[] };
const gw = (path: string, request?: Parameters<typeof call>[2]) => call<Json>(env.gatewayUrl, path, request);

describe('notifications through Slack and Teams stand-ins', () => {
  let a: TestTenant;
  let b: TestTenant;
  // /flaky: 429 (Retry-After: 1), then 500, then 200. /down: always 500. /bad: 400.
  const slack = new StandIn((path, n) => {
    if (path.startsWith('/flaky'))
      return n === 1 ? { status: 429, headers: { 'retry-after': '1' }, body: 'rate_limited' } : n === 2 ? { status: 500 } : undefined;
    if (path.startsWith('/down')) return { status: 500, body: 'internal' };
    if (path.startsWith('/bad')) return { status: 400, body: 'invalid_payload' };
    // Echoes the secret part of the URL it was called on, as many servers' 404 pages do.
    if (path.startsWith('/echo')) return { status: 404, body: `no hook at ${path}` };
    return undefined;
  });
  const teams = new StandIn();
  // Every webhook URL and token this suite gives the platform: none may come back in an answer or a log line.
  const watch = new SecretWatch();
  const secretsOf = (body: Record<string, unknown>): string[] =>
    [body.slack, body.teams, body.email, body.destination]
      .flatMap((part) => Object.entries((part ?? {}) as Record<string, unknown>))
      .filter(([name, value]) => ['webhook_url', 'bot_token', 'password', 'to'].includes(name) && typeof value === 'string')
      .map(([, value]) => value as string);

  const channel = async (tenant: TestTenant, body: Record<string, unknown>, key = tenant.test_key): Promise<Json> => {
    watch.add(...secretsOf(body));
    const res = await gw('/notifications/channels', { headers: withKey(key), body });
    expect(res.status).toBe(201);
    return res.body;
  };
  const send = (tenant: TestTenant, body: Record<string, unknown>, key = tenant.test_key) => {
    watch.add(...secretsOf(body));
    return gw('/notifications/send', { headers: withKey(key), body });
  };
  const settled = (tenant: TestTenant, id: string, key = tenant.test_key) =>
    eventually(
      `notification ${id} to settle`,
      async () => {
        const res = await gw(`/notifications/history/${id}`, { headers: withKey(key) });
        return ['delivered', 'failed'].includes(res.body.status as string) ? res.body : undefined;
      },
      60_000,
    );

  beforeAll(async () => {
    await Promise.all([slack.start(), teams.start()]);
    [a, b] = await Promise.all([createTenant(env.gatewayUrl, env.adminToken, 'notify-a'), createTenant(env.gatewayUrl, env.adminToken, 'notify-b')]);
  });

  afterAll(async () => {
    await Promise.all([slack.stop(), teams.stop()]);
    expect(await watch.leaks()).toEqual([]);
  });

  it('records what a receiver echoes of the webhook URL redacted, in the history and the test send', async () => {
    const path = `/echo/T${randomUUID().slice(0, 8)}/${randomUUID()}`;
    const ch = await channel(a, { name: 'echoing', kind: 'slack', slack: { webhook_url: `${slack.url}${path}` } });
    const sent = await send(a, { channel_id: ch.id, body: 'hello' });
    const done = await settled(a, sent.body.id as string);
    expect(done.status).toBe('failed');
    expect((done.attempts ?? [])[0]).toMatchObject({ status_code: 404, error: 'HTTP 404: no hook at [redacted]' });
    const tested = await gw(`/notifications/channels/${ch.id as string}/test`, { method: 'POST', headers: withKey(a.test_key), body: {} });
    expect(tested.text).toContain('no hook at [redacted]');
    expect(slack.at(path)).toHaveLength(2);
  });

  it('manages channels without ever returning their credentials, and seals them at rest', async () => {
    const url = `${slack.url}/crud-${randomUUID()}`;
    const created = await channel(a, { name: 'ops', kind: 'slack', slack: { webhook_url: url } });
    expect(created).toMatchObject({ name: 'ops', kind: 'slack', slack: { mode: 'webhook', channel: null }, secrets: ['webhook_url'], enabled: true });
    expect(JSON.stringify(created)).not.toContain(url);
    const id = created.id as string;

    const got = await gw(`/notifications/channels/${id}`, { headers: withKey(a.test_key) });
    expect(got.status).toBe(200);
    expect(JSON.stringify(got.body)).not.toContain(url);
    const listed = await gw('/notifications/channels?kind=slack', { headers: withKey(a.test_key) });
    expect((listed.body.data ?? []).map((c) => c.id)).toContain(id);

    const bot = await gw(`/notifications/channels/${id}`, {
      method: 'PATCH',
      headers: withKey(a.test_key),
      body: { name: 'ops-bot', slack: { bot_token: 'xoxb-1-2-abc', channel: '#ops' } },
    });
    expect(bot.body).toMatchObject({ name: 'ops-bot', slack: { mode: 'bot', channel: '#ops' }, secrets: ['bot_token'] });
    const wrongKind = await gw(`/notifications/channels/${id}`, { method: 'PATCH', headers: withKey(a.test_key), body: { teams: { webhook_url: url } } });
    expect(wrongKind.status).toBe(400);
    const missing = await gw('/notifications/channels', { headers: withKey(a.test_key), body: { name: 'x', kind: 'email' } });
    expect(missing.status).toBe(400);

    // At rest: the configuration in the clear holds no credential; the sealed column is not the token.
    const client = new pg.Client({ connectionString: env.databaseUrl });
    await client.connect();
    try {
      const rows = await client.query<{ config: unknown; secret_ciphertext: Buffer }>(
        'select config, secret_ciphertext from notification.channels where id = $1',
        [id],
      );
      expect(JSON.stringify(rows.rows[0].config)).not.toContain('xoxb');
      expect(rows.rows[0].secret_ciphertext.toString('utf8')).not.toContain('xoxb-1-2-abc');
    } finally {
      await client.end();
    }

    expect((await gw(`/notifications/channels/${id}`, { method: 'DELETE', headers: withKey(a.test_key) })).status).toBe(204);
    expect((await gw(`/notifications/channels/${id}`, { headers: withKey(a.test_key) })).status).toBe(404);
  });

  it('renders Markdown as Slack mrkdwn and a Teams Adaptive Card, with template variables shown literally', async () => {
    const path = `/render-${randomUUID()}`;
    const s = await channel(a, { name: 'slack', kind: 'slack', slack: { webhook_url: `${slack.url}${path}` } });
    const t = await channel(a, { name: 'teams', kind: 'teams', teams: { webhook_url: `${teams.url}${path}` } });
    const message = {
      subject: 'Deploy {{version}}',
      body: '# Done\n\nVersion **{{version}}** by {{who}} is [live](https://example.com/r).\n\n- one\n- two',
      variables: { version: '1.4.2', who: '*bold* <script>' },
    };
    const [sent, sentTeams] = await Promise.all([send(a, { channel_id: s.id, ...message }), send(a, { channel_id: t.id, ...message })]);
    expect(sent.status).toBe(202);
    expect(sent.body).toEqual({ id: expect.any(String), status: 'queued' });
    await Promise.all([settled(a, sent.body.id as string), settled(a, sentTeams.body.id as string)]);

    const [slackPayload] = slack.at(path);
    expect(slackPayload.headers['x-notification-id']).toBe(sent.body.id);
    const blocks = slackPayload.body.blocks as Json[];
    expect(blocks[0]).toMatchObject({ type: 'header', text: { type: 'plain_text', text: 'Deploy 1.4.2' } });
    const mrkdwn = (blocks[1].text as Json).text as string;
    expect(mrkdwn).toContain('*Done*');
    expect(mrkdwn).toContain('*1.4.2*');
    expect(mrkdwn).toContain('<https://example.com/r|live>');
    expect(mrkdwn).toContain('• one');
    // The variable's markup is shown, not applied.
    expect(mrkdwn).toContain('&lt;script&gt;');

    const [card] = teams.at(path);
    const attachment = (card.body.attachments as Json[])[0];
    expect(attachment.contentType).toBe('application/vnd.microsoft.card.adaptive');
    const content = attachment.content as Json;
    expect(content).toMatchObject({ type: 'AdaptiveCard', version: '1.4' });
    const texts = (content.body as Json[]).map((x) => x.text);
    expect(texts[0]).toBe('Deploy 1.4.2');
    expect(texts).toContain('**Done**');
    expect(texts.join('\n')).toContain('[live](https://example.com/r)');
  });

  it('retries 429 after Retry-After and 500 with backoff, and records every attempt', async () => {
    const path = `/flaky-${randomUUID()}`;
    const sent = await send(a, { destination: { kind: 'slack', to: `${slack.url}${path}` }, body: 'hello' });
    expect(sent.status).toBe(202);
    const done = await settled(a, sent.body.id as string);
    expect(done.status).toBe('delivered');
    const attempts = done.attempts ?? [];
    expect(attempts.map((x) => [x.outcome, x.status_code])).toEqual([
      ['retry', 429],
      ['retry', 500],
      ['delivered', 200],
    ]);
    const times = slack.at(path).map((r) => r.at);
    expect(times).toHaveLength(3);
    // Retry-After: 1 is honoured.
    expect(times[1] - times[0]).toBeGreaterThanOrEqual(950);
    expect(JSON.stringify(done)).not.toContain(path);
  });

  it('retries each notification of a burst on its own schedule while the others are delivered at once', async () => {
    // Sends made together are committed and queued together; here every other one is refused once.
    const run = randomUUID();
    const sends = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        send(a, { destination: { kind: 'slack', to: `${slack.url}/${i % 2 ? 'flaky' : 'fine'}-${run}-${i}` }, body: `n${i}` }),
      ),
    );
    expect(sends.map((s) => s.status)).toEqual(Array.from({ length: 24 }, () => 202));
    const done = await Promise.all(sends.map((s) => settled(a, s.body.id as string)));
    done.forEach((d, i) => {
      expect(d.status).toBe('delivered');
      expect((d.attempts ?? []).map((x) => x.status_code)).toEqual(i % 2 ? [429, 500, 200] : [200]);
    });
    for (let i = 0; i < 24; i++) {
      const hits = slack.at(`/${i % 2 ? 'flaky' : 'fine'}-${run}-${i}`).map((r) => r.at);
      expect(hits).toHaveLength(i % 2 ? 3 : 1);
      // The retry after Retry-After: 1 comes from its own item's schedule, not from the reconciler,
      // which takes an item over only 5 s after its last attempt; the rest is room for a loaded machine.
      if (i % 2) expect(hits[1] - hits[0]).toBeLessThan(4500);
    }
  });

  it('gives up after the attempt limit on 5xx, and never retries a 400', async () => {
    const downPath = `/down-${randomUUID()}`;
    const badPath = `/bad-${randomUUID()}`;
    const ch = await channel(a, { name: 'down', kind: 'slack', slack: { webhook_url: `${slack.url}${downPath}` } });
    const [down, bad] = await Promise.all([
      send(a, { channel_id: ch.id, body: 'never arrives' }),
      send(a, { destination: { kind: 'slack', to: `${slack.url}${badPath}` }, body: 'refused' }),
    ]);
    const [downDone, badDone] = await Promise.all([settled(a, down.body.id as string), settled(a, bad.body.id as string)]);
    // The e2e platform runs with NOTIFICATION_MAX_ATTEMPTS=4 and NOTIFICATION_RETRY_BASE_MS=200.
    expect(downDone.status).toBe('failed');
    expect((downDone.attempts ?? []).map((x) => x.outcome)).toEqual(['retry', 'retry', 'retry', 'failed']);
    const times = slack.at(downPath).map((r) => r.at);
    expect(times).toHaveLength(4);
    const gaps = times.slice(1).map((t, i) => t - times[i]);
    expect(gaps[2]).toBeGreaterThan(gaps[0]);
    expect(badDone.status).toBe('failed');
    expect(badDone.attempts).toEqual([expect.objectContaining({ attempt: 1, outcome: 'failed', status_code: 400 })]);
    expect(slack.at(badPath)).toHaveLength(1);

    const failed = await gw(`/notifications/history?status=failed&channel_id=${ch.id as string}`, { headers: withKey(a.test_key) });
    expect((failed.body.data ?? []).map((n) => n.id)).toEqual([down.body.id]);
    const future = new Date(Date.now() + 3_600_000).toISOString();
    const past = new Date(Date.now() - 3_600_000).toISOString();
    const history = (query: string) => gw(`/notifications/history?channel_id=${ch.id as string}&${query}`, { headers: withKey(a.test_key) });
    expect((await history(`from=${future}`)).body.data).toEqual([]);
    expect((await history(`to=${past}`)).body.data).toEqual([]);
    expect(((await history(`from=${past}&to=${future}`)).body.data ?? []).map((n) => n.id)).toEqual([down.body.id]);
    expect((await history('status=nope')).status).toBe(400);
  });

  it('sends once per idempotency key, and refuses the key with another body', async () => {
    const path = `/once-${randomUUID()}`;
    const body = { destination: { kind: 'teams', to: `${teams.url}${path}` }, body: 'once', idempotency_key: `k-${randomUUID()}` };
    const answers = await Promise.all([send(a, body), send(a, body), send(a, body)]);
    expect(answers.map((x) => x.status)).toEqual([202, 202, 202]);
    expect(new Set(answers.map((x) => x.body.id)).size).toBe(1);
    await settled(a, answers[0].body.id as string);
    const again = await send(a, body);
    expect(again.body).toEqual({ id: answers[0].body.id, status: 'delivered' });
    expect((await send(a, { ...body, body: 'other' })).status).toBe(409);
    expect(teams.at(path)).toHaveLength(1);
  });

  it('meters each stored send once, with the key mode: a repeated idempotency key is not counted again', async () => {
    const c = await createTenant(env.gatewayUrl, env.adminToken, 'notify-metered');
    const to = `${teams.url}/metered-${randomUUID()}`;
    const keyed = { destination: { kind: 'teams', to }, body: 'metered', idempotency_key: `m-${randomUUID()}` };
    const answers = await Promise.all([
      send(c, keyed),
      send(c, keyed),
      send(c, { destination: { kind: 'teams', to }, body: 'second' }),
      send(c, { destination: { kind: 'teams', to }, body: 'live' }, c.live_key),
    ]);
    expect(answers.map((x) => x.status)).toEqual([202, 202, 202, 202]);
    const usage = async () => {
      const res = await gw('/subscription/usage', { headers: withKey(c.live_key) });
      return (res.body.metrics as { metric: string; used: number; sandbox_used: number }[]).find((m) => m.metric === 'notifications');
    };
    await eventually('the sends to be metered', async () => ((await usage())?.sandbox_used === 2 ? true : undefined));
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(await usage()).toMatchObject({ used: 1, sandbox_used: 2 });
  });

  it('keeps channels and history apart between tenants and customers (404 like an unknown id)', async () => {
    const ch = await channel(a, { name: 'private', kind: 'teams', teams: { webhook_url: `${teams.url}/iso-${randomUUID()}` } });
    const sent = await send(a, { channel_id: ch.id, body: 'mine' });
    const unknownChannel = await gw(`/notifications/channels/${randomUUID()}`, { headers: withKey(b.test_key) });
    const foreignChannel = await gw(`/notifications/channels/${ch.id as string}`, { headers: withKey(b.test_key) });
    expect(foreignChannel.status).toBe(404);
    expect({ ...foreignChannel.body, request_id: null }).toEqual({ ...unknownChannel.body, request_id: null });
    const unknownHistory = await gw(`/notifications/history/${randomUUID()}`, { headers: withKey(b.test_key) });
    const foreignHistory = await gw(`/notifications/history/${sent.body.id as string}`, { headers: withKey(b.test_key) });
    expect(foreignHistory.status).toBe(404);
    expect({ ...foreignHistory.body, request_id: null }).toEqual({ ...unknownHistory.body, request_id: null });
    expect((await gw('/notifications/history', { headers: withKey(b.test_key) })).body.data).toEqual([]);
    expect((await send(b, { channel_id: ch.id, body: 'through a foreign channel' })).status).toBe(400);
    // Another environment of the same tenant (the live key) sees none of the sandbox's.
    expect((await gw(`/notifications/channels/${ch.id as string}`, { headers: withKey(a.live_key) })).status).toBe(404);

    // Customers: each sees its own channels and notifications only; the tenant sees all.
    const customer = async (name: string) => {
      const c = await gw('/portal/customers', { headers: withKey(a.test_key), body: { name } });
      const key = await gw('/account/api-keys', {
        headers: withKey(a.test_key),
        body: {
          name: `${name}-key`,
          type: 'customer',
          customer_id: c.body.id,
          scopes: ['notifications:send', 'notifications:read', 'notifications:write'],
          data_plane_id: a.sandbox_data_plane_id,
        },
      });
      expect(key.status).toBe(201);
      return key.body.key as string;
    };
    const [k1, k2] = await Promise.all([customer(`c1-${randomUUID().slice(0, 6)}`), customer(`c2-${randomUUID().slice(0, 6)}`)]);
    const own = await channel(a, { name: 'c1', kind: 'teams', teams: { webhook_url: `${teams.url}/c1-${randomUUID()}` } }, k1);
    const c1Sent = await send(a, { channel_id: own.id, body: 'c1' }, k1);
    expect(c1Sent.status).toBe(202);
    expect((await gw(`/notifications/channels/${own.id as string}`, { headers: withKey(k2) })).status).toBe(404);
    expect((await gw(`/notifications/history/${c1Sent.body.id as string}`, { headers: withKey(k2) })).status).toBe(404);
    expect((await gw(`/notifications/channels/${ch.id as string}`, { headers: withKey(k1) })).status).toBe(404);
    expect((await send(a, { channel_id: own.id, body: 'not yours' }, k2)).status).toBe(400);
    expect((await gw(`/notifications/history/${c1Sent.body.id as string}`, { headers: withKey(a.test_key) })).status).toBe(200);
  });

  it('validates sends: a body or template, one destination, known template names', async () => {
    const url = `${teams.url}/v-${randomUUID()}`;
    expect((await send(a, { destination: { kind: 'teams', to: url } })).status).toBe(400);
    expect((await send(a, { body: 'x' })).status).toBe(400);
    expect((await send(a, { destination: { kind: 'teams', to: url }, body: 'x', template: 'nope' })).status).toBe(400);
    expect((await send(a, { destination: { kind: 'teams', to: url }, body: '{{#open}}x' })).status).toBe(400);
    expect((await send(a, { destination: { kind: 'teams', to: 'file:///etc/passwd' }, body: 'x' })).status).toBe(400);
    const templated = await send(a, {
      destination: { kind: 'teams', to: url },
      template: 'api_key_expiring',
      variables: { key_name: 'ci', key_prefix: 'sv_test_AbC1', expires_at: '2026-12-01' },
    });
    expect(templated.status).toBe(202);
    const done = await settled(a, templated.body.id as string);
    expect(done).toMatchObject({ status: 'delivered', subject: 'API key ci expires soon', template: 'api_key_expiring' });
  });
});
