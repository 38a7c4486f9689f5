import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { isFinished } from '@platform/messaging';
import {
  call,
  createTenant,
  createTestDatabase,
  removeNatsNamespace,
  startPlatform,
  withKey,
  type RunningPlatform,
  type TestDatabase,
  type TestTenant,
} from '@platform/testing';
import { env, runToEnd, type Json } from './engine-helpers.js';

describe('action steps on the e2e platform (private networks refused)', () => {
  let tenant: TestTenant;

  beforeAll(async () => {
    tenant = await createTenant(env.gatewayUrl, env.adminToken, 'actions');
  });

  it.each(['http://127.0.0.1:9/', 'http://169.254.169.254/latest/meta-data/', 'http://10.0.0.1/', 'http://[::1]/', 'http://2130706433/'])(
    'refuses http.request to %s (SSRF)',
    async (url) => {
      const done = await runToEnd(tenant, [{ id: 'fetch', type: 'http.request', input: { url } }]);
      expect(done).toMatchObject({ status: 'failed', error: { code: 'ssrf_blocked', step_id: 'fetch' } });
    },
  );

  it.each([
    ['require', "return require('fs').readFileSync('/etc/passwd', 'utf8')", 'code_error'],
    ['process', 'process.exit(1)', 'code_error'],
    ['constructor escape', "return this.constructor.constructor('return process')().pid", 'code_error'],
    ['infinite loop', 'while (true) {}', 'code_timeout'],
    ['memory bomb', 'const a = []; while (true) a.push(new Array(1e6).fill(1));', '(code_memory_limit|code_timeout)'],
  ])('fails a code step that tries %s, and the worker survives', async (_label, code, expected) => {
    const done = await runToEnd(tenant, [{ id: 'evil', type: 'code', input: { code } }]);
    expect(done.status).toBe('failed');
    expect((done.error as Json).code).toMatch(new RegExp(`^${expected}$`));
    const fine = await runToEnd(
      tenant,
      [{ id: 'ok', type: 'code', input: { code: 'return { sum: input.a + input.b }', input: { a: 2, b: '{% input.b %}' } } }],
      { b: 3 },
    );
    expect(fine).toMatchObject({ status: 'succeeded', output: { sum: 5 } });
    expect((await call(env.serviceUrls.run, '/actuator/health')).status).toBe(200);
  });
});

describe('http.request against a local server (a platform that allows private networks)', () => {
  let database: TestDatabase;
  const namespace = `actions-${randomBytes(3).toString('hex')}`;
  let platform: RunningPlatform;
  let server: Server;
  let base: string;
  let tenant: TestTenant;
  const hits = new Map<string, number>();
  let aborted = 0;
  const adminToken = randomBytes(32).toString('base64url');
  const run = (steps: unknown[]) => runOn(platform.gatewayUrl, tenant, steps);

  beforeAll(async () => {
    server = createServer((req, res) => {
      const path = req.url ?? '/';
      hits.set(path, (hits.get(path) ?? 0) + 1);
      if (path.startsWith('/flaky')) {
        if (hits.get(path)! <= 2) res.writeHead(503).end('not yet');
        else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true, tries: hits.get(path) }));
      } else if (path.startsWith('/slow')) {
        req.on('close', () => !res.writableEnded && aborted++);
        setTimeout(() => !res.destroyed && res.end('late'), 15_000).unref();
      } else if (path.startsWith('/missing')) {
        res.writeHead(404).end('no');
      } else {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ echo: req.headers['x-token'] ?? null }));
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    database = await createTestDatabase('actions');
    platform = await startPlatform({
      databaseUrl: database.url,
      services: ['account', 'run'],
      env: {
        LOG_LEVEL: 'warn',
        PLATFORM_ADMIN_TOKEN: adminToken,
        MASTER_KEY: randomBytes(32).toString('base64'),
        NATS_NAMESPACE: namespace,
        RATE_LIMIT_ENABLED: 'false',
        HTTP_ALLOW_PRIVATE_NETWORKS: 'true',
        RUN_RECONCILE_INTERVAL_MS: '250',
      },
    });
    tenant = await createTenant(platform.gatewayUrl, adminToken, 'local-http');
  }, 60_000);

  afterAll(async () => {
    await platform?.stop();
    await database?.drop();
    await removeNatsNamespace(namespace);
    server?.close();
  });

  it('calls the server and returns status, headers and parsed body', async () => {
    const done = await run([{ id: 'get', type: 'http.request', input: { url: `${base}/echo`, headers: { 'x-token': 'abc' } } }]);
    expect(done).toMatchObject({ status: 'succeeded', output: { status: 200, body: { echo: 'abc' } } });
  });

  it('retries a failing step with backoff until it succeeds', async () => {
    const done = await run([{ id: 'flaky', type: 'http.request', input: { url: `${base}/flaky-1` }, retry: { max_attempts: 4, backoff_seconds: 0.2 } }]);
    expect(done).toMatchObject({ status: 'succeeded', output: { body: { ok: true, tries: 3 } } });
    expect((done.steps as Json[])[0]).toMatchObject({ id: 'flaky', attempt: 3, status: 'succeeded' });
    const logs = await call<Json>(platform.gatewayUrl, `/run/executions/${done.id as string}/logs?level=warn`, { headers: withKey(tenant.test_key) });
    expect(logs.body.data).toHaveLength(2);
  });

  it('does not retry a 404, and gives up after max_attempts on a 5xx', async () => {
    const notFound = await run([{ id: 'nf', type: 'http.request', input: { url: `${base}/missing` }, retry: { max_attempts: 3, backoff_seconds: 0.1 } }]);
    expect(notFound).toMatchObject({ status: 'failed', error: { code: 'http_4xx' } });
    expect((notFound.steps as Json[])[0].attempt).toBe(1);
    const exhausted = await run([{ id: 'five', type: 'http.request', input: { url: `${base}/flaky-2` }, retry: { max_attempts: 2, backoff_seconds: 0.1 } }]);
    expect(exhausted).toMatchObject({ status: 'failed', error: { code: 'http_5xx' } });
  });

  it('times a step out', async () => {
    const done = await run([{ id: 'slow', type: 'http.request', input: { url: `${base}/slow-timeout` }, timeout_seconds: 1 }]);
    expect(done.status).toBe('failed');
    expect(['step_timeout', 'timeout']).toContain((done.error as Json).code);
  });

  it('commits the pure steps held back before a step with effects starts', async () => {
    // Transforms' records ride on the next commit; an http.request is an effect, so what ran
    // before it is durable (and shown) before the request leaves.
    const wf = await call<Json>(platform.gatewayUrl, '/run/workflows', {
      headers: withKey(tenant.test_key),
      body: {
        name: 'pure-then-effect',
        steps: [
          { id: 'a', type: 'transform', input: { value: 1 } },
          { id: 'b', type: 'transform', input: { value: '{% steps.a.output.value + 1 %}' } },
          { id: 'slow', type: 'http.request', input: { url: `${base}/slow-visible`, timeout_ms: 60_000 } },
        ],
      },
    });
    const started = await call<Json>(platform.gatewayUrl, '/v1/automations/run', {
      headers: withKey(tenant.test_key),
      body: { automation_id: wf.body.id, input: {} },
    });
    const runId = started.body.run_id as string;
    for (let i = 0; i < 100 && !hits.get('/slow-visible'); i++) await new Promise((r) => setTimeout(r, 50));
    expect(hits.get('/slow-visible')).toBe(1);
    const running = await call<Json>(platform.gatewayUrl, `/run/executions/${runId}`, { headers: withKey(tenant.test_key) });
    expect(running.body.status).toBe('running');
    expect((running.body.steps as Json[]).map((st) => [st.id, st.status, st.output])).toEqual([
      ['a', 'succeeded', { value: 1 }],
      ['b', 'succeeded', { value: 2 }],
    ]);
    await call(platform.gatewayUrl, `/run/executions/${runId}/cancel`, { method: 'POST', headers: withKey(tenant.test_key) });
  });

  it('cancels a running execution and aborts its running step', async () => {
    const wf = await call<Json>(platform.gatewayUrl, '/run/workflows', {
      headers: withKey(tenant.test_key),
      body: { name: 'slow', steps: [{ id: 'slow', type: 'http.request', input: { url: `${base}/slow-cancel`, timeout_ms: 60_000 } }] },
    });
    const started = await call<Json>(platform.gatewayUrl, '/v1/automations/run', {
      headers: withKey(tenant.test_key),
      body: { automation_id: wf.body.id, input: {} },
    });
    const runId = started.body.run_id as string;
    for (let i = 0; i < 100 && !hits.get('/slow-cancel'); i++) await new Promise((r) => setTimeout(r, 50));
    const before = aborted;
    const cancelled = await call<Json>(platform.gatewayUrl, `/run/executions/${runId}/cancel`, { method: 'POST', headers: withKey(tenant.test_key) });
    expect(cancelled.body.status).toBe('cancelled');
    for (let i = 0; i < 60 && aborted === before; i++) await new Promise((r) => setTimeout(r, 50));
    expect(aborted).toBe(before + 1);
    const final = await call<Json>(platform.gatewayUrl, `/run/executions/${runId}`, { headers: withKey(tenant.test_key) });
    expect(final.body.status).toBe('cancelled');
  });
});

async function runOn(gatewayUrl: string, tenant: TestTenant, steps: unknown[]): Promise<Json> {
  const h = withKey(tenant.test_key);
  const wf = await call<Json>(gatewayUrl, '/run/workflows', { headers: h, body: { name: 'local', steps } });
  if (wf.status !== 201) throw new Error(wf.text);
  const started = await call<Json>(gatewayUrl, '/v1/automations/run', { headers: h, body: { automation_id: wf.body.id, input: {} } });
  for (let i = 0; i < 300; i++) {
    const e = await call<Json>(gatewayUrl, `/run/executions/${started.body.run_id as string}`, { headers: h });
    if (isFinished(e.body.status as string)) return e.body;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('execution did not finish');
}
