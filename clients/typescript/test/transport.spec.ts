import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { PlatformApiError, PlatformConnectionError, createClient } from '../src/index.js';
import { nodeHttp } from '../src/node-http.js';
import { retryAfterMs } from '../src/transport.js';
import { StandInServer, errorBody, json } from './stand-in-server.js';

const server = new StandInServer();
beforeAll(() => server.start());
afterAll(() => server.stop());

const client = (retry = {}) => createClient({ baseUrl: server.url, apiKey: 'sv_test_key', retry });
const WORKFLOW = { id: 'w1', name: 'a', steps: [] };

describe('SDK transport: retries of 429 and 503', () => {
  it('retries a 429 after the Retry-After it names, then answers', async () => {
    server.reset((req, res) => {
      if (server.seen.length === 1) json(res, 429, errorBody(429, 'rate_limited', 'Rate limit exceeded'), { 'retry-after': '1' });
      else json(res, 200, WORKFLOW);
    });
    const started = Date.now();
    await expect(client().workflows.get('w1')).resolves.toEqual(WORKFLOW);
    expect(server.seen).toHaveLength(2);
    // Never sooner than asked, and the jitter adds at most a quarter.
    const gap = server.seen[1].at - server.seen[0].at;
    expect(gap).toBeGreaterThanOrEqual(1000);
    expect(Date.now() - started).toBeLessThan(1600);
  });

  it('retries 503 with a doubling wait when none is named, up to maxRetries, then throws the last answer', async () => {
    server.reset((_req, res) => json(res, 503, errorBody(503, 'unavailable', 'Authentication is temporarily unavailable')));
    const error = await client({ maxRetries: 2, baseDelayMs: 20 })
      .workflows.get('w1')
      .catch((e: unknown) => e);
    expect(server.seen).toHaveLength(3);
    expect(error).toBeInstanceOf(PlatformApiError);
    expect(error).toMatchObject({ status: 503, code: 'unavailable', message: 'Authentication is temporarily unavailable' });
    expect(server.seen[2].at - server.seen[1].at).toBeGreaterThanOrEqual(40);
  });

  it('does not wait past its budget: a Retry-After beyond it is thrown at once, with the seconds asked', async () => {
    server.reset((_req, res) => json(res, 429, errorBody(429, 'rate_limited', 'slow down'), { 'retry-after': '60' }));
    const started = Date.now();
    const error = (await client({ budgetMs: 5000 })
      .workflows.get('w1')
      .catch((e: unknown) => e)) as PlatformApiError;
    expect(Date.now() - started).toBeLessThan(500);
    expect(server.seen).toHaveLength(1);
    expect(error).toMatchObject({ status: 429, code: 'rate_limited', retryAfter: 60 });
  });

  it('does not retry other failures (a 500, a 409)', async () => {
    server.reset((_req, res) => json(res, 500, errorBody(500, 'internal', 'Internal server error')));
    await expect(client().workflows.get('w1')).rejects.toMatchObject({ status: 500, code: 'internal' });
    expect(server.seen).toHaveLength(1);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    expect(retryAfterMs('2')).toBe(2000);
    expect(retryAfterMs(new Date(Date.now() + 3000).toUTCString(), Date.now())).toBeGreaterThan(1000);
    expect(retryAfterMs('soon')).toBeUndefined();
    expect(retryAfterMs(null)).toBeUndefined();
  });
});

describe('SDK transport: errors, credentials and request ids', () => {
  it('throws the error body typed: status, code, message, request id, details', async () => {
    const details = [{ field: 'steps[0].type', message: 'unknown step type' }];
    server.reset((_req, res) => json(res, 400, errorBody(400, 'validation_failed', 'Validation failed', { details })));
    const error = (await client()
      .workflows.create({ name: 'x', steps: [] })
      .catch((e: unknown) => e)) as PlatformApiError;
    expect(error).toBeInstanceOf(PlatformApiError);
    expect(error).toMatchObject({ status: 400, code: 'validation_failed', message: 'Validation failed', requestId: 'req-from-server', details });
    expect(error.request_id).toBe('req-from-server');
    expect(error).toMatchObject({ method: 'POST', path: '/run/workflows' });
  });

  it('keeps an answer that is not the platform shape readable (a proxy in between)', async () => {
    server.reset((_req, res) => res.writeHead(502, { 'x-request-id': 'proxy-id' }).end('Bad gateway from the proxy'));
    await expect(client().workflows.get('w1')).rejects.toMatchObject({
      status: 502,
      code: 'http_502',
      message: 'Bad gateway from the proxy',
      requestId: 'proxy-id',
    });
  });

  it('sends the key, or a bearer token with its tenant, and the caller’s request id; reports every answer', async () => {
    server.reset((req, res) => json(res, 200, { type: 'api_key' }, { 'x-request-id': String(req.headers['x-request-id'] ?? 'made') }));
    const seen: (string | undefined)[] = [];
    const keyed = createClient({ baseUrl: server.url, apiKey: 'sv_test_key', onResponse: (info) => seen.push(info.requestId) });
    await keyed.me({ requestId: 'deploy-42.step-1' });
    expect(server.seen[0].headers).toMatchObject({ 'x-api-key': 'sv_test_key', 'x-request-id': 'deploy-42.step-1' });
    expect(seen).toEqual(['deploy-42.step-1']);
    await createClient({ baseUrl: `${server.url}/`, token: 'jwt', tenant: 't1' }).me();
    expect(server.seen[1].headers).toMatchObject({ authorization: 'Bearer jwt', 'x-selected-tenant': 't1' });
    expect(server.seen[1].headers['x-api-key']).toBeUndefined();
    expect(() => createClient({ baseUrl: server.url, token: 'jwt' })).toThrow(/tenant/);
    expect(() => createClient({ baseUrl: server.url })).toThrow(/apiKey or token/);
  });

  it('names the address when the platform cannot be reached', async () => {
    const closed = createClient({ baseUrl: 'http://127.0.0.1:1', apiKey: 'k', retry: { maxRetries: 1, baseDelayMs: 10 } });
    const error = (await closed.workflows.get('w1').catch((e: unknown) => e)) as PlatformConnectionError;
    expect(error).toBeInstanceOf(PlatformConnectionError);
    expect(error.message).toContain('http://127.0.0.1:1/run/workflows/w1');
  });
});

describe('SDK transport: AbortSignal', () => {
  it('aborts a call in flight', async () => {
    server.reset((_req, res) => void setTimeout(() => json(res, 200, WORKFLOW), 2000).unref());
    const started = Date.now();
    const error = (await client()
      .workflows.get('w1', { signal: AbortSignal.timeout(100) })
      .catch((e: unknown) => e)) as Error;
    expect(error.name).toBe('TimeoutError');
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('aborts the wait between retries', async () => {
    server.reset((_req, res) => json(res, 429, errorBody(429, 'rate_limited', 'wait'), { 'retry-after': '10' }));
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('deploy cancelled')), 100);
    const started = Date.now();
    await expect(client().workflows.get('w1', { signal: controller.signal })).rejects.toThrow('deploy cancelled');
    expect(Date.now() - started).toBeLessThan(1000);
    expect(server.seen).toHaveLength(1);
  });
});

describe('SDK transport over node:http (nodeHttp), as the CLI sends', () => {
  const viaNode = (retry = {}) => createClient({ baseUrl: server.url, apiKey: 'sv_test_key', retry, fetch: nodeHttp });

  it('answers, retries after Retry-After and throws typed errors the same way', async () => {
    server.reset((req, res) => {
      if (server.seen.length === 1) json(res, 503, errorBody(503, 'unavailable', 'busy'), { 'retry-after': '0' });
      else if (req.url.endsWith('/missing')) json(res, 404, errorBody(404, 'not_found', 'Workflow not found'));
      else json(res, 200, WORKFLOW);
    });
    await expect(viaNode().workflows.get('w1', { requestId: 'mine' })).resolves.toEqual(WORKFLOW);
    expect(server.seen).toHaveLength(2);
    expect(server.seen[1].headers).toMatchObject({ 'x-api-key': 'sv_test_key', 'x-request-id': 'mine' });
    await expect(viaNode().workflows.get('missing')).rejects.toMatchObject({ status: 404, code: 'not_found', requestId: 'req-from-server' });
  });

  it('sends bodies and aborts', async () => {
    server.reset((req, res) => (req.method === 'POST' ? json(res, 201, JSON.parse(req.body)) : void setTimeout(() => json(res, 200, WORKFLOW), 2000).unref()));
    await expect(viaNode().workflows.create({ name: 'ü', steps: [] })).resolves.toEqual({ name: 'ü', steps: [] });
    await expect(viaNode().workflows.get('w1', { signal: AbortSignal.timeout(100) })).rejects.toMatchObject({ name: 'TimeoutError' });
  });

  it('names the address when nothing listens', async () => {
    const closed = createClient({ baseUrl: 'http://127.0.0.1:1', apiKey: 'k', retry: { maxRetries: 0 }, fetch: nodeHttp });
    await expect(closed.workflows.get('w1')).rejects.toBeInstanceOf(PlatformConnectionError);
  });
});
