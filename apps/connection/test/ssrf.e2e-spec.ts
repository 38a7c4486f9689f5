import { beforeAll, describe, expect, it } from '@jest/globals';
import { call, createTenant, e2eEnvironment, withKey, type TestTenant } from '@platform/testing';

type Json = Record<string, unknown>;
const env = e2eEnvironment();
const gw = (path: string, request?: Parameters<typeof call>[2]) => call<Json>(env.gatewayUrl, path, request);

describe('connectors on the e2e platform (private networks refused)', () => {
  let tenant: TestTenant;

  beforeAll(async () => {
    tenant = await createTenant(env.gatewayUrl, env.adminToken, 'conn-ssrf');
  });

  it.each(['http://127.0.0.1:9/api', 'http://169.254.169.254/latest', 'http://10.0.0.1/', 'http://[::1]/', 'http://2130706433/'])(
    'refuses to reach %s, in a connection test and in a connector step',
    async (baseUrl) => {
      const made = await gw('/connections', {
        headers: withKey(tenant.test_key),
        body: { name: 'inside', connector_id: 'http', settings: { base_url: baseUrl }, auth: { type: 'none' } },
      });
      expect(made.status).toBe(201);
      const id = made.body.id as string;
      const tested = await gw(`/connections/${id}/test`, { method: 'POST', headers: withKey(tenant.test_key) });
      expect(tested.body).toMatchObject({ ok: false, status: 400, message: expect.stringContaining('which connectors may not reach') });

      const wf = await gw('/api/v1/workflow/workflows', {
        headers: withKey(tenant.test_key),
        body: { name: 'ssrf', steps: [{ id: 'call', type: 'connector', input: { connection_id: id, operation: 'request', params: { path: '/' } } }] },
      });
      const started = await gw('/v1/automations/run', { headers: withKey(tenant.test_key), body: { automation_id: wf.body.id, input: {} } });
      let run: Json = {};
      for (
        const end = Date.now() + 15_000;
        Date.now() < end && !['succeeded', 'failed'].includes(run.status as string);
        await new Promise((r) => setTimeout(r, 100))
      ) {
        run = (await gw(`/run/executions/${started.body.run_id as string}`, { headers: withKey(tenant.test_key) })).body;
      }
      expect(run).toMatchObject({ status: 'failed', error: { code: 'ssrf_blocked', step_id: 'call' } });
    },
  );
});
