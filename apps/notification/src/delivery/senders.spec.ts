import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { loadNotificationConfig } from '../config/notification.config.js';
import type { OpenChannel } from './channel-kinds.js';
import { render } from './render.js';
import { Senders } from './senders.js';

describe('Senders against a local Slack stand-in', () => {
  let server: Server;
  let base: string;
  const seen: { path: string; headers: IncomingHttpHeaders; body: Record<string, unknown> }[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      let raw = '';
      req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
      req.on('end', () => {
        const body = JSON.parse(raw) as Record<string, unknown>;
        seen.push({ path: req.url ?? '', headers: req.headers, body });
        const answer = (json: unknown, status = 200, headers: Record<string, string> = {}) =>
          res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(json));
        if (req.url === '/hook-429') return answer({}, 429, { 'retry-after': '7' });
        // A receiver that echoes what it got: the path it was called on, every header, the body.
        if (req.url?.startsWith('/echo') || body.channel === '#echo')
          return answer({ error: `refused ${req.url ?? ''} ${JSON.stringify(req.headers)} ${raw}` }, 403);
        if (body.channel === '#busy') return answer({ ok: false, error: 'ratelimited' }, 200, { 'retry-after': '3' });
        if (body.channel === '#gone') return answer({ ok: false, error: 'channel_not_found' });
        answer({ ok: true });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => {
    server.close();
  });

  const senders = (allowPrivate: boolean) =>
    new Senders(loadNotificationConfig({ NOTIFICATION_SLACK_API_URL: `${base}/api`, NOTIFICATION_ALLOW_PRIVATE_NETWORKS: String(allowPrivate) }));
  const bot = (channel: string): OpenChannel => ({ id: 'c', kind: 'slack', config: { mode: 'bot', channel }, secrets: { bot_token: 'xoxb-1-2-abc' } });
  const content = render('slack', 'Title', 'Hello **there**');

  it('posts with a bot token to chat.postMessage and reads ok: false', async () => {
    expect(await senders(true).send({ kind: 'slack', channel: bot('#ops'), recipients: [] }, content, 'n1')).toEqual({ outcome: 'delivered', statusCode: 200 });
    const call = seen.find((s) => s.body.channel === '#ops')!;
    expect(call.path).toBe('/api/chat.postMessage');
    expect(call.headers.authorization).toBe('Bearer xoxb-1-2-abc');
    expect(call.body).toMatchObject({ channel: '#ops', text: expect.stringContaining('Title') });
    expect(await senders(true).send({ kind: 'slack', channel: bot('#busy'), recipients: [] }, content, 'n2')).toMatchObject({
      outcome: 'transient',
      retryAfterMs: 3000,
    });
    expect(await senders(true).send({ kind: 'slack', channel: bot('#gone'), recipients: [] }, content, 'n3')).toMatchObject({
      outcome: 'permanent',
      error: 'Slack: channel_not_found',
    });
  });

  it('never records the webhook URL or bot token a receiver echoes back', async () => {
    const token = 'xoxb-7731-echo-token-5b1e';
    const echoBot: OpenChannel = { id: 'c', kind: 'slack', config: { mode: 'bot', channel: '#echo' }, secrets: { bot_token: token } };
    const byBot = await senders(true).send({ kind: 'slack', channel: echoBot, recipients: [] }, content, 'n-echo-1');
    expect(byBot).toMatchObject({ outcome: 'permanent', statusCode: 403 });
    const hook = `${base}/echo/T0001/B0002/s3cr3tP4thPart?sig=Zm9vYmFyYmF6cXV4`;
    const hookChannel: OpenChannel = { id: 'c', kind: 'slack', config: { mode: 'webhook' }, secrets: { webhook_url: hook } } as OpenChannel;
    const byHook = await senders(true).send({ kind: 'slack', channel: hookChannel, recipients: [] }, content, 'n-echo-2');
    const adHoc = await senders(true).send({ kind: 'teams', url: hook, recipients: [] }, render('teams', 'T', 'x'), 'n-echo-3');
    for (const outcome of [byBot, byHook, adHoc]) {
      const error = (outcome as { error: string }).error;
      expect(error).toContain('[redacted]');
      for (const secret of [token, 's3cr3tP4thPart', 'Zm9vYmFyYmF6cXV4']) expect(error).not.toContain(secret);
    }
    // They were sent: the echo is what is redacted.
    expect(seen.some((s) => s.headers.authorization === `Bearer ${token}`)).toBe(true);
  });

  it('reads Retry-After of a webhook answer', async () => {
    expect(await senders(true).send({ kind: 'slack', url: `${base}/hook-429`, recipients: [] }, content, 'n4')).toMatchObject({
      outcome: 'transient',
      statusCode: 429,
      retryAfterMs: 7000,
    });
  });

  it('refuses loopback and private addresses unless allowed (SSRF), without sending', async () => {
    const before = seen.length;
    const outcome = await senders(false).send({ kind: 'teams', url: `${base}/private`, recipients: [] }, render('teams', null, 'x'), 'n5');
    expect(outcome).toMatchObject({ outcome: 'permanent', error: expect.stringContaining('private or local address') });
    // A name that resolves to loopback is refused in the socket's own lookup (no rebinding window).
    const named = await senders(false).send({ kind: 'teams', url: base.replace('127.0.0.1', 'localhost'), recipients: [] }, render('teams', null, 'x'), 'n6');
    expect(named).toMatchObject({ outcome: 'permanent', error: expect.stringContaining('private or local address') });
    expect(seen.length).toBe(before);
  });
});
