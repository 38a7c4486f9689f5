import { readdirSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { validate, compileErrors } from '@readme/openapi-parser';
import { SERVICE_NAMES, SERVICES } from '@platform/common';
import { call, e2eEnvironment, serviceEntry, startProcess } from '@platform/testing';

const env = e2eEnvironment();
/** Routes that take no credentials on purpose (`@Public()`), besides health. */
const PUBLIC_ROUTES = new Set([
  '/webhooks/in/{id}',
  '/tasks/public/{token}',
  '/portal/public/forms/{id}',
  '/portal/public/forms/{id}/runs/{runId}',
  '/portal/public/runs/{id}',
  '/portal/public/dashboards/{id}',
  '/connections/oauth/callback',
]);

const gw = (path: string, request?: Parameters<typeof call>[2]) => call<Record<string, unknown>>(env.gatewayUrl, path, request);
const UNAUTHORIZED = { error: 'Unauthorized', code: 'unauthorized', message: 'Missing or invalid authentication credentials', status: 401 };

describe('gateway and services, end to end', () => {
  it('aggregates the health of all thirteen services', async () => {
    const res = await gw('/actuator/health');
    expect(res.status).toBe(200);
    const services = res.body.services as Record<string, { status: string; components: Record<string, { status: string }> }>;
    expect(Object.keys(services).sort()).toEqual([...SERVICE_NAMES].sort());
    for (const name of SERVICE_NAMES) {
      expect(services[name].status).toBe('UP');
      expect(services[name].components.database.status).toBe('UP');
      expect(services[name].components.nats.status).toBe('UP');
    }
  });

  it.each(SERVICE_NAMES)('publishes a valid OpenAPI 3 description for %s', async (name) => {
    const res = await gw(`/v3/api-docs/${name}`);
    expect(res.status).toBe(200);
    const doc = res.body as { openapi: string; info: { title: string }; paths: Record<string, Record<string, { security?: unknown[] }>> };
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.info.title).toBe(`${SERVICES[name].title} service`);
    const result = await validate(structuredClone(doc) as never);
    if (!result.valid) throw new Error(compileErrors(result));
    // Every operation but health and the public webhook address states its authentication (the
    // one decorator that guards it documents it); a new public route is a deliberate edit here.
    for (const [path, operations] of Object.entries(doc.paths)) {
      if (path.startsWith('/actuator/') || PUBLIC_ROUTES.has(path)) continue;
      for (const [method, operation] of Object.entries(operations)) {
        expect({ route: `${method} ${path}`, secured: (operation.security?.length ?? 0) > 0 }).toEqual({ route: `${method} ${path}`, secured: true });
      }
    }
  });

  it('merges every service into one valid description and serves the explorer', async () => {
    const merged = await gw('/v3/api-docs');
    expect(merged.status).toBe(200);
    const result = await validate(structuredClone(merged.body) as never);
    if (!result.valid) throw new Error(compileErrors(result));
    const paths = Object.keys(merged.body.paths as object);
    for (const path of [
      '/run/executions',
      '/api/v1/workflow/workflows',
      '/v1/data/query',
      '/storage/files',
      '/account/api-keys',
      '/actuator/health/{service}',
      '/catalog/llm-models',
      '/subscription/current',
      '/kb/knowledge-bases',
    ]) {
      expect(paths).toContain(path);
    }
    const ui = await gw('/swagger-ui');
    expect(ui.status).toBe(200);
    for (const name of SERVICE_NAMES) expect(ui.text).toContain(`/v3/api-docs/${name}`);
    expect((await gw('/swagger-ui/swagger-ui-bundle.js')).status).toBe(200);
  });

  it.each([
    ['/catalog/connectors'],
    ['/api/v1/workflow/workflows'],
    ['/api/v1/workflow/run/executions'],
    ['/api/v1/workflow/data-planes/api-keys'],
    ['/storage/secrets'],
    ['/kb/knowledge-bases'],
  ])("answers an anonymous call to %s with the spec's exact 401", async (path) => {
    const res = await gw(path);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ ...UNAUTHORIZED, request_id: expect.any(String) });
  });

  it('answers unknown paths with JSON 404s, at the gateway and inside a service', async () => {
    const outside = await gw('/no/such/thing');
    expect(outside.status).toBe(404);
    expect(outside.body).toEqual({
      error: 'Not Found',
      code: 'not_found',
      message: 'No route for GET /no/such/thing',
      status: 404,
      request_id: expect.any(String),
    });
    const inside = await gw('/catalog/no-such-route');
    expect(inside.status).toBe(404);
    expect(inside.body).toMatchObject({ error: 'Not Found', status: 404 });
    expect(inside.headers.get('content-type')).toContain('application/json');
  });

  it('answers malformed JSON with a 400 in the error shape', async () => {
    const res = await gw('/connections', { method: 'POST', body: '{"name": ', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'Bad Request',
      code: 'malformed_json',
      message: 'Malformed JSON in request body',
      status: 400,
      request_id: expect.any(String),
    });
  });

  it('refuses a body over the limit before it reaches a service', async () => {
    const big = await gw('/connections', { method: 'POST', body: JSON.stringify({ blob: 'a'.repeat(11 * 1024 * 1024) }) });
    expect(big.status).toBe(413);
    expect(big.body).toMatchObject({ error: 'Payload Too Large', status: 413 });
  });

  it('streams a chunked body through, and stops a chunked body over the limit, without falling over', async () => {
    const chunked = (chunks: string[]) =>
      fetch(`${env.gatewayUrl}/connections`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: new ReadableStream({
          start(controller) {
            for (const c of chunks) controller.enqueue(new TextEncoder().encode(c));
            controller.close();
          },
        }),
        duplex: 'half',
      });
    const small = await chunked(['{"name":', '"x"}']);
    expect(small.status).toBe(401);
    const big = await chunked(Array.from({ length: 11 }, () => 'a'.repeat(1024 * 1024))).catch(() => undefined);
    expect(big === undefined || big.status === 413).toBe(true);
    expect((await gw('/actuator/health/liveness')).status).toBe(200);
    expect((await gw('/catalog/connectors')).status).toBe(401);
  });

  it("answers a service's refusal of a body it did not read, and the client's connection stays usable", async () => {
    // 5 MB without credentials: the service's guard answers 401 before reading the body, while the
    // gateway is still sending it. The client's connection used to be reset instead of answered.
    const big = 'a=' + 'x'.repeat(5_000_000);
    for (let i = 0; i < 2; i++) {
      const refused = await fetch(`${env.gatewayUrl}/connections`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: big,
      });
      expect(refused.status).toBe(401);
      expect(await refused.json()).toMatchObject({ error: 'Unauthorized', status: 401 });
      expect((await gw('/catalog/connectors')).status).toBe(401);
    }
  });

  it('passes a request sent with Expect: 100-continue on to the service', async () => {
    const { request } = await import('node:http');
    const body = JSON.stringify({ name: 'x' });
    const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request(`${env.gatewayUrl}/connections`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), expect: '100-continue', host: 'api.example.test' },
      });
      req.on('continue', () => req.end(body));
      req.on('response', (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      });
      req.on('error', reject);
    });
    expect(answer.status).toBe(401); // the service answered: authentication comes before the body matters
    expect(JSON.parse(answer.text)).toMatchObject({ status: 401 });
  });

  it('keeps a valid X-Request-Id end to end and replaces an invalid one', async () => {
    const kept = await gw('/catalog/connectors', { headers: { 'x-request-id': 'trace-123.abc_DEF' } });
    expect(kept.headers.get('x-request-id')).toBe('trace-123.abc_DEF');
    expect(kept.body.request_id).toBe('trace-123.abc_DEF');
    const replaced = await gw('/catalog/connectors', { headers: { 'x-request-id': 'bad id with spaces' } });
    expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(replaced.body.request_id).toBe(replaced.headers.get('x-request-id'));
  });

  it('answers 502 for a stopped service at once while the others keep working', async () => {
    const name = 'subscription';
    const pidFile = readdirSync(env.pidDir).find((f) => f.startsWith(`${name}.`))!;
    process.kill(Number(pidFile.split('.')[1]), 'SIGTERM');
    const healthUrl = `${env.serviceUrls[name]}/actuator/health`;
    for (
      let i = 0;
      i < 100 &&
      (await fetch(healthUrl).then(
        () => true,
        () => false,
      ));
      i++
    )
      await new Promise((r) => setTimeout(r, 100));

    const started = Date.now();
    const down = await gw('/subscription/current');
    // At once, not after the proxy's 30 s time-out; the bound leaves a loaded machine room.
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(down.status).toBe(502);
    expect(down.body).toEqual({
      error: 'Bad Gateway',
      code: 'upstream_failed',
      message: 'The service is unavailable',
      status: 502,
      request_id: expect.any(String),
    });
    expect((await gw('/catalog/connectors')).status).toBe(401);
    const health = await gw('/actuator/health');
    expect(health.status).toBe(503);
    expect((health.body.services as Record<string, { status: string }>)[name].status).toBe('DOWN');

    // Bring it back the way the platform started it, so the run ends as it began.
    await startProcess({ name, entry: serviceEntry(name), env: env.serviceEnv[name], healthUrl, pidDir: env.pidDir });
    expect((await gw('/subscription/current')).status).toBe(401);
    expect((await gw('/actuator/health')).status).toBe(200);
  });
});
