import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SERVICE_NAMES, envStem } from '@platform/common';
import { call, createTenant, e2eEnvironment, freePort, serviceEntry, startProcess, withKey, type ManagedProcess, type TestTenant } from '@platform/testing';

const env = e2eEnvironment();
type Json = Record<string, unknown>;

/**
 * A gateway whose generic timeout is shorter than the AI runtime's provider timeout (as the
 * defaults were, 30 s against 60 s): on the AI routes it must still wait for the runtime's own
 * answer, the documented `504` naming the provider, not its own.
 */
describe('long routes: the gateway waits for the service’s own timeout', () => {
  let gateway: ManagedProcess;
  let gatewayUrl: string;
  let tenant: TestTenant;
  let silent: Server;
  let provider: string;
  const providerTimeoutMs = env.serviceEnv['ai-runtime'].AI_PROVIDER_TIMEOUT_MS ?? '2000';

  beforeAll(async () => {
    // A model server that takes requests and never answers.
    silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = await freePort();
    gatewayUrl = `http://127.0.0.1:${port}`;
    gateway = await startProcess({
      name: 'gateway-long-routes',
      entry: serviceEntry('gateway'),
      env: {
        ...Object.fromEntries(SERVICE_NAMES.map((name) => [`${envStem(name)}_URL`, env.serviceUrls[name]])),
        GATEWAY_PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        RATE_LIMIT_ENABLED: 'false',
        UPSTREAM_TIMEOUT_MS: '1000',
        UPSTREAM_TIMEOUT_MARGIN_MS: '3000',
        AI_PROVIDER_TIMEOUT_MS: providerTimeoutMs,
      },
      healthUrl: `${gatewayUrl}/actuator/health/liveness`,
      pidDir: env.pidDir,
    });
    tenant = await createTenant(env.gatewayUrl, env.adminToken, `long-${randomUUID().slice(0, 8)}`);
    provider = `silent-${randomUUID().slice(0, 6)}`;
    const created = await call<Json>(env.gatewayUrl, '/ai/providers', {
      headers: withKey(tenant.test_key),
      body: { name: provider, base_url: `http://127.0.0.1:${(silent.address() as AddressInfo).port}/v1`, models: [{ id: 'mute', kind: 'chat' }] },
    });
    expect(created.status).toBe(201);
  });

  afterAll(async () => {
    await gateway?.stop();
    silent?.closeAllConnections();
    await new Promise<void>((resolve) => (silent ? silent.close(() => resolve()) : resolve()));
  });

  it('answers the AI runtime’s 504 provider timeout, not the gateway’s', async () => {
    const res = await call<Json>(gatewayUrl, '/ai/generate', { headers: withKey(tenant.test_key), body: { model: `${provider}/mute`, prompt: 'x' } });
    expect(res.status).toBe(504);
    expect(res.body.message).toBe(`The model provider did not answer within ${providerTimeoutMs} ms`);
  });

  it('lets a read held by Prefer: wait outlast UPSTREAM_TIMEOUT_MS', async () => {
    const workflow = await call<Json>(gatewayUrl, '/api/v1/workflow/workflows', {
      headers: withKey(tenant.test_key),
      body: { name: `held-${randomUUID().slice(0, 6)}`, steps: [{ id: 'pause', type: 'delay', input: { seconds: 30 } }] },
    });
    const started = await call<Json>(gatewayUrl, '/v1/automations/run', { headers: withKey(tenant.test_key), body: { automation_id: workflow.body.id } });
    const id = started.body.run_id as string;
    const res = await call<Json>(gatewayUrl, `/run/executions/${id}`, { headers: { ...withKey(tenant.test_key), prefer: 'wait=2' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('preference-applied')).toBe('wait=2');
    await call(gatewayUrl, `/run/executions/${id}/cancel`, { method: 'POST', headers: withKey(tenant.test_key) });
  });
});
