import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Server } from 'node:http';
import { classifyAddress, systemResolver, type AddressPolicy, type HostResolver } from '@platform/common';
import { HttpRequestStep, type HttpRequestOutput } from './http-request.step.js';
import { listen, listenForStepTests, portOf, type SeenRequest } from '../../../test/http-test-server.js';
import { stepContext, stepFailure } from '../../../test/step-context.js';
import type { StepDefinition, StepSettings } from './step-executor.js';

const SETTINGS: StepSettings = {
  allowPrivateNetworks: true,
  httpResponseLimitBytes: 64 * 1024,
  httpDefaultTimeoutMs: 5000,
  codeTimeoutMs: 1000,
  codeMemoryLimitBytes: 32 * 1024 * 1024,
};

const context = (settings: Partial<StepSettings> = {}, signal?: AbortSignal) => stepContext('call', { ...SETTINGS, ...settings }, signal);

const step = (input: Record<string, unknown>): StepDefinition => ({ id: 'call', type: 'http.request', input });

const failure = stepFailure;

describe('HttpRequestStep against a local server', () => {
  let server: Server;
  let other: Server;
  let base: string;
  let otherBase: string;
  const seen: SeenRequest[] = [];

  beforeAll(async () => {
    server = await listenForStepTests(seen);
    other = await listen((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ other: true, headers: req.headers }));
    });
    base = `http://127.0.0.1:${portOf(server)}`;
    otherBase = `http://127.0.0.1:${portOf(other)}`;
  });

  afterAll(async () => {
    for (const s of [server, other]) {
      s.closeAllConnections();
      await new Promise((resolve) => s.close(resolve));
    }
  });

  const executor = new HttpRequestStep();
  const run = (input: Record<string, unknown>, ctx = context()) => executor.execute(input, step(input), ctx);

  describe('responses', () => {
    it('parses JSON when the content type says so, and returns status and lower-case headers', async () => {
      const out = await run({ url: `${base}/json` });
      expect(out.status).toBe(200);
      expect(out.body).toEqual({ hello: 'world', n: [1, 2] });
      expect(out.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(Object.getPrototypeOf(out.headers)).toBe(Object.prototype);
      expect((await run({ url: `${base}/problem` })).body).toEqual({ title: 'x' });
    });

    it('returns text for other content types, in the declared charset', async () => {
      expect((await run({ url: `${base}/text` })).body).toBe('plain text ✓');
      expect((await run({ url: `${base}/latin1` })).body).toBe('café');
      expect((await run({ url: `${base}/json`, response_type: 'text' })).body).toBe('{"hello":"world","n":[1,2]}');
    });

    it('returns base64 when asked', async () => {
      const out = await run({ url: `${base}/binary`, response_type: 'base64' });
      expect(Buffer.from(out.body as string, 'base64')).toEqual(Buffer.from([0, 1, 2, 253, 254, 255]));
    });

    it('parses JSON when asked whatever the content type, and fails when it is not JSON', async () => {
      const error = await failure(run({ url: `${base}/text`, response_type: 'json' }));
      expect([error.code, error.retryable]).toEqual(['invalid_response', false]);
      // auto trusts the header, not the caller: a lying server gives text, not a failure
      expect((await run({ url: `${base}/not-json` })).body).toBe('<html>oops</html>');
    });

    it('decompresses gzip, and gives null when there is no body', async () => {
      expect((await run({ url: `${base}/gzip` })).body).toEqual({ zipped: true });
      const empty = await run({ url: `${base}/empty` });
      expect([empty.status, empty.body]).toEqual([204, null]);
      const head = await run({ method: 'HEAD', url: `${base}/json` });
      expect([head.status, head.body]).toEqual([200, null]);
    });

    it('keeps repeated set-cookie headers as a list', async () => {
      const out = await run({ url: `${base}/echo` });
      expect(out.headers['set-cookie']).toEqual(['a=1', 'b=2']);
      expect(out.headers['x-custom']).toBe('Yes');
    });
  });

  describe('request', () => {
    it('adds query parameters to those of the URL and sends the headers', async () => {
      const out = (await run({ url: `${base}/echo?z=1`, query: { a: 1, b: 'x y&c', c: true }, headers: { 'X-Api-Key': 'k-123' } })) as HttpRequestOutput & {
        body: { url: string; headers: Record<string, string>; method: string };
      };
      expect(out.body.method).toBe('GET');
      expect(out.body.url).toBe('/echo?z=1&a=1&b=x+y%26c&c=true');
      expect(out.body.headers['x-api-key']).toBe('k-123');
    });

    it('leaves out headers and parameters whose expression found nothing (undefined)', async () => {
      const out = (await run({ url: `${base}/echo`, query: { a: undefined, b: 2 }, headers: { 'X-Missing': undefined, 'X-Set': 'v' } })).body as {
        url: string;
        headers: Record<string, string>;
      };
      expect(out.url).toBe('/echo?b=2');
      expect([out.headers['x-missing'], out.headers['x-set']]).toEqual([undefined, 'v']);
    });

    it('sends an object body as JSON and a string as it is', async () => {
      const json = (await run({ method: 'POST', url: `${base}/echo`, body: { a: [1, 'two'] } })).body as {
        headers: Record<string, string>;
        body: string;
        method: string;
      };
      expect(json.method).toBe('POST');
      expect(json.headers['content-type']).toBe('application/json');
      expect(JSON.parse(json.body)).toEqual({ a: [1, 'two'] });
      expect(json.headers['content-length']).toBe(String(Buffer.byteLength(json.body)));

      const text = (await run({ method: 'put', url: `${base}/echo`, body: 'a=1&b=2', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } }))
        .body as {
        headers: Record<string, string>;
        body: string;
        method: string;
      };
      expect([text.method, text.body, text.headers['content-type']]).toEqual(['PUT', 'a=1&b=2', 'application/x-www-form-urlencoded']);
    });

    it('logs one line per request without the query string or secrets', async () => {
      const ctx = context();
      await run({ url: `${base}/echo?token=secret-value`, headers: { authorization: 'Bearer secret-value', cookie: 'sid=secret-value' } }, ctx);
      expect(ctx.lines).toHaveLength(1);
      expect(ctx.lines[0].level).toBe('info');
      expect(ctx.lines[0].message).toMatch(new RegExp(`^GET ${base}/echo 200 \\d+ms$`));
      expect(JSON.stringify(ctx.lines)).not.toContain('secret-value');
    });

    it('refuses an input that is invalid at run time', async () => {
      const error = await failure(run({ url: 'https://user:pw@example.com/' }));
      expect([error.code, error.retryable]).toEqual(['invalid_input', false]);
      expect(error.details?.problems).toEqual([{ path: 'input.url', message: expect.stringMatching(/credentials/) as unknown }]);
    });
  });

  describe('status codes', () => {
    it('fails on 5xx as retryable with the status and a body excerpt of at most 1 KiB', async () => {
      const error = await failure(run({ url: `${base}/status?code=503` }));
      expect([error.code, error.retryable, error.details?.status]).toEqual(['http_5xx', true, 503]);
      expect((error.details?.body as string).length).toBe(1024);
    });

    it('fails on 4xx as not retryable, except 429', async () => {
      const notFound = await failure(run({ url: `${base}/status?code=404` }));
      expect([notFound.code, notFound.retryable, notFound.details?.status]).toEqual(['http_4xx', false, 404]);
      const tooMany = await failure(run({ url: `${base}/status?code=429` }));
      expect([tooMany.code, tooMany.retryable, tooMany.details?.retry_after]).toEqual(['http_4xx', true, '7']);
    });

    it('returns any status as output with fail_on_status: false', async () => {
      const out = await run({ url: `${base}/status?code=500`, fail_on_status: false });
      expect(out.status).toBe(500);
      expect((out.body as string).length).toBe(5000);
    });
  });

  describe('limits', () => {
    it('stops at the response limit, with or without a content length, and for a compressed bomb', async () => {
      for (const path of ['/big', '/big-chunked', '/gzip-bomb']) {
        const error = await failure(run({ url: `${base}${path}` }, context({ httpResponseLimitBytes: 4096 })));
        expect([path, error.code, error.retryable]).toEqual([path, 'response_too_large', false]);
      }
    });

    it('times out as retryable, body reading included', async () => {
      for (const path of ['/hang', '/slow']) {
        const started = Date.now();
        // The step's own 200 ms, not the 60 s default: a generous multiple of it, far below the default.
        const error = await failure(run({ url: `${base}${path}`, timeout_ms: 200 }, context({ httpDefaultTimeoutMs: 60_000 })));
        expect([path, error.code, error.retryable]).toEqual([path, 'timeout', true]);
        expect(Date.now() - started).toBeLessThan(10_000);
      }
    });

    it('uses the default timeout from the settings', async () => {
      const error = await failure(run({ url: `${base}/hang` }, context({ httpDefaultTimeoutMs: 150 })));
      expect(error.code).toBe('timeout');
    });

    it('stops promptly when the signal aborts', async () => {
      const controller = new AbortController();
      const started = Date.now();
      setTimeout(() => controller.abort(new Error('cancelled')), 100);
      // With a 60 s default timeout, only the abort can end the call within the bound.
      const error = await failure(run({ url: `${base}/hang` }, context({ httpDefaultTimeoutMs: 60_000 }, controller.signal)));
      expect(error.code).toBe('aborted');
      expect(Date.now() - started).toBeLessThan(10_000);
      const already = new AbortController();
      already.abort();
      expect((await failure(run({ url: `${base}/json` }, context({}, already.signal)))).code).toBe('aborted');
    });

    it('reports a refused connection as a retryable network error', async () => {
      const closed = await listen(() => undefined);
      const port = portOf(closed);
      await new Promise((resolve) => closed.close(resolve));
      const error = await failure(run({ url: `http://127.0.0.1:${port}/` }));
      expect([error.code, error.retryable, error.details?.cause]).toEqual(['network_error', true, 'ECONNREFUSED']);
    });
  });

  describe('redirects', () => {
    it('follows them to the final response', async () => {
      const out = await run({ url: `${base}/redirect?to=${encodeURIComponent('/redirect?to=/json')}` });
      expect([out.status, out.body]).toEqual([200, { hello: 'world', n: [1, 2] }]);
    });

    it('turns a POST into a GET on 303 and keeps it on 307', async () => {
      const after303 = (await run({ method: 'POST', url: `${base}/redirect?status=303&to=/echo`, body: { a: 1 } })).body as { method: string; body: string };
      expect([after303.method, after303.body]).toEqual(['GET', '']);
      const after307 = (await run({ method: 'POST', url: `${base}/redirect?status=307&to=/echo`, body: { a: 1 } })).body as { method: string; body: string };
      expect([after307.method, after307.body]).toEqual(['POST', '{"a":1}']);
    });

    it('stops after 5', async () => {
      const ctx = context();
      const error = await failure(run({ url: `${base}/loop` }, ctx));
      expect([error.code, error.retryable]).toEqual(['too_many_redirects', false]);
      expect(ctx.lines).toHaveLength(6);
    });

    it('drops credentials on a redirect to another origin', async () => {
      const out = await run({
        url: `${base}/redirect?to=${encodeURIComponent(`${otherBase}/`)}`,
        headers: { authorization: 'Bearer t', cookie: 'c=1', 'x-keep': 'yes' },
      });
      const headers = (out.body as { headers: Record<string, string> }).headers;
      expect(headers.authorization).toBeUndefined();
      expect(headers.cookie).toBeUndefined();
      expect(headers['x-keep']).toBe('yes');
    });

    it('refuses a redirect to another scheme or with credentials', async () => {
      for (const to of ['ftp://example.com/x', 'file:///etc/passwd', `http://user:pw@127.0.0.1:${portOf(server)}/json`]) {
        const error = await failure(run({ url: `${base}/redirect?to=${encodeURIComponent(to)}` }));
        expect([to, error.code, error.retryable]).toEqual([to, 'invalid_redirect', false]);
      }
    });
  });

  describe('SSRF protection (allowPrivateNetworks: false)', () => {
    const guarded = () => context({ allowPrivateNetworks: false });

    it('refuses loopback in every spelling, without sending anything', async () => {
      const port = portOf(server);
      const before = seen.length;
      for (const host of [
        '127.0.0.1',
        'localhost',
        '2130706433',
        '0x7f.1',
        '017700000001',
        '127.1',
        '0x7f000001',
        '0',
        '[::1]',
        '[::ffff:127.0.0.1]',
        '[::ffff:7f00:1]',
        '[64:ff9b::7f00:1]',
        '[::127.0.0.1]',
      ]) {
        const ctx = guarded();
        const error = await failure(run({ url: `http://${host}:${port}/json` }, ctx));
        expect([host, error.code, error.retryable]).toEqual([host, 'ssrf_blocked', false]);
        expect(ctx.lines.filter((line) => line.level === 'info')).toEqual([]);
      }
      expect(seen.length).toBe(before);
    });

    it('refuses the metadata address and private ranges before any connection', async () => {
      for (const url of [
        'http://169.254.169.254/latest/meta-data/',
        'http://10.0.0.1/',
        'http://192.168.0.1:8080/',
        'http://[fd00::1]/',
        'http://100.64.0.1/',
      ]) {
        // Refused by the address check: a connection attempt to these would end in 'timeout' or a network error, not this code.
        const error = await failure(run({ url }, guarded()));
        expect([url, error.code]).toEqual([url, 'ssrf_blocked']);
      }
      const error = await failure(run({ url: 'http://169.254.169.254/latest/meta-data/' }, guarded()));
      expect(error.details).toEqual({ host: '169.254.169.254', address: '169.254.169.254', range: 'linkLocal' });
    });

    it('refuses a name when any of its addresses is blocked', async () => {
      const resolver: HostResolver = () =>
        Promise.resolve([
          { address: '93.184.216.34', family: 4 },
          { address: '10.0.0.7', family: 4 },
        ]);
      const error = await failure(new HttpRequestStep({ resolver }).execute({ url: 'http://mixed.test/' }, step({}), guarded()));
      expect([error.code, error.details?.address]).toEqual(['ssrf_blocked', '10.0.0.7']);
    });

    it('re-checks every redirect hop: an allowed first hop cannot lead to a blocked address', async () => {
      // Stand-ins for "a public server": the policy lets 127.0.0.1 through, as it would a public address.
      const addressPolicy: AddressPolicy = (address) => (address === '127.0.0.1' ? { allowed: true, range: 'test-public' } : classifyAddress(address));
      const resolver: HostResolver = (host, signal) =>
        host === 'internal.test' ? Promise.resolve([{ address: '10.1.2.3', family: 4 }]) : systemResolver(host, signal);
      const executor = new HttpRequestStep({ addressPolicy, resolver });

      for (const to of [
        'http://169.254.169.254/latest/meta-data/iam/',
        'http://internal.test/admin',
        `http://[::1]:${portOf(server)}/json`,
        `http://2130706433:${portOf(server)}/json`.replace('2130706433', '0x0a000001'),
      ]) {
        const ctx = guarded();
        const error = await failure(executor.execute({ url: `${base}/redirect?to=${encodeURIComponent(to)}` }, step({}), ctx));
        expect([to, error.code]).toEqual([to, 'ssrf_blocked']);
        expect(ctx.lines.filter((line) => line.level === 'info').map((line) => line.data?.status)).toEqual([302]);
      }
      // and the first hop alone does work under that policy
      expect((await executor.execute({ url: `${base}/json` }, step({}), guarded())).status).toBe(200);
    });

    it('connects to the address it checked, not to a second resolution', async () => {
      let calls = 0;
      const resolver: HostResolver = () => {
        calls++;
        return Promise.resolve([{ address: '127.0.0.1', family: 4 }]);
      };
      // `.test` names do not resolve in DNS: reaching the server proves the checked answer was used.
      const out = await new HttpRequestStep({ resolver }).execute({ url: `http://api.example.test:${portOf(server)}/echo` }, step({}), context());
      expect(calls).toBe(1);
      expect((out.body as { headers: Record<string, string> }).headers.host).toBe(`api.example.test:${portOf(server)}`);
    });

    it('checks the connected peer again', async () => {
      // A policy that changes its mind between the DNS check and the connection (a stand-in for
      // any way the socket could end up elsewhere): the peer check refuses it.
      let checks = 0;
      const addressPolicy: AddressPolicy = () => (++checks === 1 ? { allowed: true, range: 'test-public' } : { allowed: false, range: 'loopback' });
      const error = await failure(new HttpRequestStep({ addressPolicy }).execute({ url: `${base}/json` }, step({}), guarded()));
      expect([error.code, error.retryable]).toEqual(['ssrf_blocked', false]);
      expect(checks).toBe(2);
    });

    it('lets private addresses through when allowPrivateNetworks is set', async () => {
      expect((await run({ url: `http://localhost:${portOf(server)}/json` })).status).toBe(200);
      expect((await run({ url: `http://2130706433:${portOf(server)}/json` })).status).toBe(200);
    });
  });
});
