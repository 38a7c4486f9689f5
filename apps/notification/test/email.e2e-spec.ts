import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { simpleParser, type ParsedMail } from 'mailparser';
import { generate } from 'selfsigned';
import { SMTPServer } from 'smtp-server';
import { call, createTenant, e2eEnvironment, eventually, withKey, type TestTenant } from '@platform/testing';

const env = e2eEnvironment();
type Json = Record<string, unknown> & { attempts?: Json[] };
const gw = (path: string, request?: Parameters<typeof call>[2]) => call<Json>(env.gatewayUrl, path, request);

interface Smtp {
  server: SMTPServer;
  port: number;
  mails: ParsedMail[];
  logins: string[];
}

/** A real SMTP server with TLS (implicit, or STARTTLS required), login, and a recipient it refuses. */
async function startSmtp(key: string, cert: string, secure: boolean): Promise<Smtp> {
  const mails: ParsedMail[] = [];
  const logins: string[] = [];
  const server = new SMTPServer({
    secure,
    key,
    cert,
    authOptional: false,
    logger: false,
    onAuth(auth, _session, callback) {
      logins.push(`${auth.username}:${auth.password}`);
      if (auth.username === 'mailer' && auth.password === 's3cret') callback(null, { user: 'mailer' });
      else callback(new Error('Invalid username or password'));
    },
    onRcptTo(address, _session, callback) {
      if (address.address.startsWith('nobody@')) {
        const error = new Error('No such user') as Error & { responseCode: number };
        error.responseCode = 550;
        callback(error);
      } else callback();
    },
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          mails.push(mail);
          callback();
        })
        .catch(callback);
    },
  });
  // A client that refuses the certificate closes mid-handshake: expected in one test.
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return { server, port, mails, logins };
}

describe('email through a real SMTP server with TLS', () => {
  let tenant: TestTenant;
  let cert: string;
  let implicit: Smtp;
  let starttls: Smtp;

  const channel = async (smtp: Smtp, security: 'tls' | 'starttls', extra: Record<string, unknown> = {}) => {
    const res = await gw('/notifications/channels', {
      headers: withKey(tenant.test_key),
      body: {
        name: `mail-${security}`,
        kind: 'email',
        email: {
          host: '127.0.0.1',
          port: smtp.port,
          security,
          username: 'mailer',
          password: 's3cret',
          from: 'Acme Alerts <alerts@acme.test>',
          reply_to: 'support@acme.test',
          to: ['ops@acme.test'],
          ca: cert,
          ...extra,
        },
      },
    });
    expect(res.status).toBe(201);
    return res.body;
  };
  const settled = (id: string) =>
    eventually(
      `notification ${id} to settle`,
      async () => {
        const res = await gw(`/notifications/history/${id}`, { headers: withKey(tenant.test_key) });
        return ['delivered', 'failed'].includes(res.body.status as string) ? res.body : undefined;
      },
      60_000,
    );

  beforeAll(async () => {
    const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
      keyType: 'ec',
      curve: 'P-256',
      algorithm: 'sha256',
      notAfterDate: new Date(Date.now() + 86_400_000),
      extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
    });
    cert = pems.cert;
    [implicit, starttls] = await Promise.all([startSmtp(pems.private, pems.cert, true), startSmtp(pems.private, pems.cert, false)]);
    tenant = await createTenant(env.gatewayUrl, env.adminToken, 'notify-email');
  });

  afterAll(async () => {
    await Promise.all([implicit, starttls].map((s) => s && new Promise<void>((resolve) => s.server.close(() => resolve()))));
  });

  it.each(['tls', 'starttls'] as const)('delivers over %s with the right headers, an HTML and a text part', async (security) => {
    const smtp = security === 'tls' ? implicit : starttls;
    const ch = await channel(smtp, security);
    expect(ch).toMatchObject({ kind: 'email', email: { security, username: 'mailer', ca: true }, secrets: ['password'] });
    expect(JSON.stringify(ch)).not.toContain('s3cret');
    const marker = randomUUID();
    const sent = await gw('/notifications/send', {
      headers: withKey(tenant.test_key),
      body: {
        channel_id: ch.id,
        to: ['dev@acme.test', 'lead@acme.test'],
        subject: 'Build {{n}} <ok>',
        body: '## Result\n\nBuild **{{n}}** passed. [Logs](https://ci.acme.test/{{n}})\n\n<b>raw html</b> {{marker}}',
        variables: { n: 42, marker },
      },
    });
    expect(sent.status).toBe(202);
    const done = await settled(sent.body.id as string);
    expect(done).toMatchObject({ status: 'delivered', to: ['dev@acme.test', 'lead@acme.test'] });
    expect((done.attempts ?? [])[0]).toMatchObject({ outcome: 'delivered', status_code: 250 });

    const mail = smtp.mails.find((m) => m.text?.includes(marker));
    expect(mail).toBeDefined();
    expect(mail!.from?.text).toBe('"Acme Alerts" <alerts@acme.test>');
    expect(mail!.replyTo?.text).toBe('support@acme.test');
    expect(mail!.subject).toBe('Build 42 <ok>');
    expect(mail!.messageId).toBe(`<${sent.body.id as string}@notifications.platform>`);
    expect(mail!.headers.get('x-notification-id')).toBe(sent.body.id);
    const to = Array.isArray(mail!.to) ? mail!.to : [mail!.to];
    expect(to.map((t) => t?.text).join(', ')).toBe('dev@acme.test, lead@acme.test');
    expect(mail!.html).toContain('<h2>Result</h2>');
    expect(mail!.html).toContain('<strong>42</strong>');
    expect(mail!.html).toContain('<a href="https://ci.acme.test/42">Logs</a>');
    // Raw HTML in the body is shown as text, never interpreted.
    expect(mail!.html).toContain('&lt;b&gt;raw html&lt;/b&gt;');
    expect(mail!.text).toContain('Build 42 passed. Logs (https://ci.acme.test/42)');
    expect(smtp.logins).toContain('mailer:s3cret');
  });

  it('records a refused recipient as a permanent failure (not retried)', async () => {
    const ch = await channel(starttls, 'starttls');
    const sent = await gw('/notifications/send', { headers: withKey(tenant.test_key), body: { channel_id: ch.id, to: ['nobody@acme.test'], body: 'x' } });
    const done = await settled(sent.body.id as string);
    expect(done.status).toBe('failed');
    expect(done.attempts).toEqual([expect.objectContaining({ attempt: 1, outcome: 'failed', status_code: 550 })]);
  });

  it('refuses a server whose certificate is not trusted, and the channel test says why', async () => {
    const ch = await channel(implicit, 'tls', { ca: undefined });
    const tested = await gw(`/notifications/channels/${ch.id as string}/test`, { headers: withKey(tenant.test_key), body: {} });
    expect(tested.status).toBe(200);
    expect(tested.body).toMatchObject({ ok: false, error: expect.stringMatching(/certificate/i) });
    const trusted = await channel(implicit, 'tls');
    const ok = await gw(`/notifications/channels/${trusted.id as string}/test`, { headers: withKey(tenant.test_key), body: { to: ['me@acme.test'] } });
    expect(ok.body).toMatchObject({ ok: true, status_code: 250, error: null });
  });
});
