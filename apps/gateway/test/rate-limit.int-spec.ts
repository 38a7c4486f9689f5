import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Redis } from 'ioredis';
import { call, freePort, serviceEntry, startProcess, type ApiResponse, type ManagedProcess } from '@platform/testing';

// Real gateway processes against the real Redis on 127.0.0.1:6379. No services are started: a
// proxied call answers 502 (or whatever runs on the default ports), which has passed the limiter
// and carries its headers all the same. The catalog is a stub counting what reaches it, to show
// that a 429 is never proxied.
const REDIS_URL = 'redis://127.0.0.1:6379';
const run = randomBytes(6).toString('hex');
const PREFIX = `rl-test-${run}`;
const newKey = (kind: 'live' | 'test') => `sv_${kind}_${run}${randomBytes(12).toString('hex')}`;
const segment = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const jwt = (sub: string, signature: string) => `${segment({ alg: 'RS256' })}.${segment({ sub, exp: 4_102_444_800 })}.${signature}`;

async function startGateway(env: Record<string, string>): Promise<{ url: string; gateway: ManagedProcess }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const gateway = await startProcess({
    name: 'gateway',
    entry: serviceEntry('gateway'),
    env: { GATEWAY_PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', RATE_LIMIT_KEY_PREFIX: PREFIX, ...env },
    healthUrl: `${url}/actuator/health/liveness`,
  });
  return { url, gateway };
}

const limitHeaders = (res: ApiResponse) => ({
  limit: res.headers.get('x-ratelimit-limit'),
  remaining: res.headers.get('x-ratelimit-remaining'),
  reset: res.headers.get('x-ratelimit-reset'),
});

/** Counters start afresh with each minute: a sequence that must stay in one window skips a minute's last seconds. */
async function withinOneWindow(seconds = 10): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < seconds * 1000) await new Promise((resolve) => setTimeout(resolve, left + 50));
}

describe('gateway rate limits (Redis)', () => {
  let url: string;
  let gateway: ManagedProcess;
  let catalog: Server;
  let catalogHits = 0;
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  const keyA = newKey('test');
  const get = (path: string, headers: Record<string, string> = {}) => call(url, path, { headers });

  beforeAll(async () => {
    catalog = createServer((_req, res) => {
      catalogHits++;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
    const catalogPort = await freePort();
    await new Promise<void>((resolve) => catalog.listen(catalogPort, '127.0.0.1', resolve));
    ({ url, gateway } = await startGateway({
      REDIS_URL,
      CATALOG_URL: `http://127.0.0.1:${catalogPort}`,
      RATE_LIMIT_TEST_PER_MINUTE: '3',
      RATE_LIMIT_ANONYMOUS_PER_MINUTE: '5',
    }));
    // The gateway serves without limits until its Redis connection is ready: wait for that, on a key of its own.
    const warmUp = { 'x-api-key': newKey('live') };
    for (let i = 0; i < 50 && (await get('/catalog/connectors', warmUp)).headers.get('x-ratelimit-limit') === null; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }, 60_000);

  afterAll(async () => {
    await gateway?.stop();
    if (catalog) await new Promise((resolve) => catalog.close(resolve));
    await redis.connect().catch(() => undefined);
    const keys = await redis.keys(`${PREFIX}:*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  });

  it('counts an API key in fixed windows and answers 429 past its limit without proxying', async () => {
    await withinOneWindow();
    const hitsBefore = catalogHits;
    const passed = [];
    for (let i = 0; i < 3; i++) passed.push(await get('/catalog/connectors', { 'x-api-key': keyA }));
    expect(passed.map((res) => res.status)).toEqual([200, 200, 200]);
    expect(catalogHits - hitsBefore).toBe(3);
    const resets = passed.map((res) => limitHeaders(res).reset);
    expect(passed.map(limitHeaders)).toEqual([
      { limit: '3', remaining: '2', reset: resets[0] },
      { limit: '3', remaining: '1', reset: resets[0] },
      { limit: '3', remaining: '0', reset: resets[0] },
    ]);
    const reset = Number(resets[0]);
    const now = Date.now() / 1000;
    expect(reset).toBeGreaterThan(now);
    expect(reset).toBeLessThanOrEqual(Math.ceil(now) + 60);
    expect(reset % 60).toBe(0);

    const before = Date.now() / 1000;
    const over = await get('/catalog/connectors', { 'x-api-key': keyA });
    expect(over.status).toBe(429);
    expect(over.body).toEqual({
      error: 'Too Many Requests',
      code: 'rate_limited',
      message: 'Rate limit exceeded: 3 requests per 60 s for this API key',
      status: 429,
      request_id: over.headers.get('x-request-id'),
    });
    expect(over.headers.get('content-type')).toContain('application/json');
    expect(limitHeaders(over)).toEqual({ limit: '3', remaining: '0', reset: resets[0] });
    expect(catalogHits - hitsBefore).toBe(3);
    const retryAfter = Number(over.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(retryAfter).toBeLessThanOrEqual(Math.max(1, Math.ceil(reset - before)));
  });

  it('gives each key its own quota, shared between X-API-Key and Authorization: Bearer', async () => {
    await withinOneWindow();
    const keyC = newKey('test');
    for (let i = 0; i < 3; i++) expect((await get('/run/executions', { 'x-api-key': keyC })).status).not.toBe(429);
    const spent = await get('/run/executions', { authorization: `Bearer ${keyC}` });
    expect(spent.status).toBe(429);
    expect(limitHeaders(spent)).toMatchObject({ limit: '3', remaining: '0' });

    const keyD = newKey('test');
    const first = await get('/run/executions', { 'x-api-key': keyD });
    expect(first.status).not.toBe(429);
    expect(limitHeaders(first)).toMatchObject({ limit: '3', remaining: '2' });
    const asBearer = await get('/run/executions', { authorization: `Bearer ${keyD}` });
    expect(asBearer.status).not.toBe(429);
    expect(limitHeaders(asBearer)).toMatchObject({ limit: '3', remaining: '1' });
  });

  it('counts bearer tokens per user and selected tenant, at the user limit', async () => {
    await withinOneWindow();
    const sub = `user-${run}`;
    const tenantA = { authorization: `Bearer ${jwt(sub, 'c2lnLTE')}`, 'x-selected-tenant': 'tenant-a' };
    expect(limitHeaders(await get('/catalog/connectors', tenantA))).toMatchObject({ limit: '600', remaining: '599' });
    // Same subject and tenant, another signature: the same counter (nothing is verified here).
    const resigned = { authorization: `Bearer ${jwt(sub, 'c2lnLTI')}`, 'x-selected-tenant': 'tenant-a' };
    expect(limitHeaders(await get('/catalog/connectors', resigned))).toMatchObject({ limit: '600', remaining: '598' });
    const tenantB = { authorization: `Bearer ${jwt(sub, 'c2lnLTE')}`, 'x-selected-tenant': 'tenant-b' };
    expect(limitHeaders(await get('/catalog/connectors', tenantB))).toMatchObject({ limit: '600', remaining: '599' });
  });

  it('never limits or counts health', async () => {
    for (let i = 0; i < 8; i++) {
      const res = await get('/actuator/health/liveness');
      expect(res.status).toBe(200);
      expect(limitHeaders(res)).toEqual({ limit: null, remaining: null, reset: null });
    }
    for (const path of ['/actuator/health', '/actuator/health/catalog']) {
      const res = await get(path, { 'x-api-key': keyA });
      expect(res.status).not.toBe(429);
      expect(limitHeaders(res)).toEqual({ limit: null, remaining: null, reset: null });
    }
  });

  it('limits callers without credentials per client address', async () => {
    // No anonymous call so far has been counted (health is not), so the quota is whole.
    await withinOneWindow();
    const paths = ['/no/such/path', '/catalog/connectors', '/v3/api-docs/nothing', '/no/such/path', '/catalog/connectors'];
    const remainings = [];
    for (const path of paths) {
      const res = await get(path);
      expect(res.status).not.toBe(429);
      remainings.push(limitHeaders(res).remaining);
    }
    expect(remainings).toEqual(['4', '3', '2', '1', '0']);
    const over = await get('/no/such/path');
    expect(over.status).toBe(429);
    expect(over.body).toEqual({
      error: 'Too Many Requests',
      code: 'rate_limited',
      message: 'Rate limit exceeded: 5 requests per 60 s for this client',
      status: 429,
      request_id: expect.any(String),
    });
    expect(limitHeaders(over)).toMatchObject({ limit: '5', remaining: '0' });
  });

  it('keeps raw credentials out of Redis keys and logs', async () => {
    await redis.connect().catch(() => undefined);
    const keys = await redis.keys(`${PREFIX}:*`);
    expect(keys.length).toBeGreaterThanOrEqual(4);
    for (const key of keys) {
      expect(key).toMatch(new RegExp(`^${PREFIX}:((key|user):[0-9a-f]{64}|ip:[0-9a-f.:]+):\\d+$`));
      expect(key).not.toContain('sv_');
    }
    for (const key of keys) expect(await redis.pttl(key)).toBeGreaterThan(0);
    expect(gateway.tail()).not.toContain(`sv_test_${run}`);
  });
});

describe('gateway rate limits with Redis unavailable', () => {
  let url: string;
  let gateway: ManagedProcess;
  let startedAt: number;

  beforeAll(async () => {
    startedAt = Date.now();
    // A port nothing listens on: every connection attempt is refused.
    const unused = await freePort();
    ({ url, gateway } = await startGateway({
      REDIS_URL: `redis://127.0.0.1:${unused}`,
      RATE_LIMIT_TEST_PER_MINUTE: '3',
      RATE_LIMIT_ANONYMOUS_PER_MINUTE: '5',
    }));
  }, 60_000);

  afterAll(async () => {
    await gateway?.stop();
  });

  it('serves every request without limits, promptly, and warns at most once per 10 s', async () => {
    const key = newKey('test');
    // More calls than either limit allows.
    for (let i = 0; i < 6; i++) {
      for (const [path, headers] of [
        ['/catalog/connectors', { 'x-api-key': key }],
        ['/no/such/path', {}],
      ] as const) {
        // Promptly: a refused Redis connection must not hold the request; 10 s is far above any
        // loaded machine's delay and far below a request held until the proxy's 30 s time-out.
        const res = await call(url, path, { headers, timeoutMs: 10_000 });
        expect(res.status).not.toBe(429);
        if (path === '/no/such/path') expect(res.status).toBe(404);
        expect(limitHeaders(res)).toEqual({ limit: null, remaining: null, reset: null });
      }
    }
    const warnings = gateway
      .tail()
      .split('\n')
      .filter((line) => line.includes('rate limiting unavailable'));
    expect(warnings.length).toBeGreaterThanOrEqual(1);
    expect(warnings.length).toBeLessThanOrEqual(1 + Math.floor((Date.now() - startedAt) / 10_000));
  });
});
