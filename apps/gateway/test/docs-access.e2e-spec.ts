import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { call, createTenant, e2eEnvironment, freePort, serviceEntry, startProcess, type ManagedProcess, type TestTenant } from '@platform/testing';

const env = e2eEnvironment();

describe('API docs access when DOCS_PUBLIC is false', () => {
  let service: ManagedProcess;
  let url: string;
  let tenant: TestTenant;

  beforeAll(async () => {
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    // A second catalog replica of the run's platform, with docs behind credentials.
    service = await startProcess({
      name: 'catalog-private-docs',
      entry: serviceEntry('catalog'),
      env: { ...env.serviceEnv.catalog, PORT: String(port), DOCS_PUBLIC: 'false' },
      healthUrl: `${url}/actuator/health`,
      pidDir: env.pidDir,
    });
    tenant = await createTenant(env.gatewayUrl, env.adminToken, 'docs');
  });

  afterAll(async () => {
    await service?.stop();
  });

  it('refuses the description and the explorer without credentials, in the error shape', async () => {
    for (const path of ['/v3/api-docs', '/swagger-ui']) {
      const res = await call(url, path);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({
        error: 'Unauthorized',
        code: 'unauthorized',
        message: 'Missing or invalid authentication credentials',
        status: 401,
        request_id: expect.any(String),
      });
    }
  });

  it('serves them to a valid API key', async () => {
    const doc = await call<{ openapi: string }>(url, '/v3/api-docs', { headers: { 'x-api-key': tenant.test_key } });
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toMatch(/^3\./);
    expect((await call(url, '/swagger-ui', { headers: { 'x-api-key': tenant.test_key } })).status).toBe(200);
  });
});
