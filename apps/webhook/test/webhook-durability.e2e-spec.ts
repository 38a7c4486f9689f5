import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from '@jest/globals';
import {
  call,
  createTenant,
  e2eEnvironment,
  serviceEntry,
  startProcess,
  withKey,
  type TestTenant,
  eventually,
  processExited,
  processIds,
  sleep,
} from '@platform/testing';
import { sign } from '../src/webhooks/signature.js';

const env = e2eEnvironment();
type Json = Record<string, unknown> & { data?: Record<string, unknown>[] };
const gw = (path: string, request?: Parameters<typeof call>[2]) => call<Json>(env.gatewayUrl, path, request);

describe('webhook deliveries through a run-service outage', () => {
  let tenant: TestTenant;

  beforeAll(async () => {
    tenant = await createTenant(env.gatewayUrl, env.adminToken, 'webhook-outage');
  });

  it('accepts deliveries while the run service is down and starts each run once when it is back', async () => {
    const wf = await gw('/api/v1/workflow/workflows', {
      headers: withKey(tenant.test_key),
      body: { name: `wf-${randomUUID().slice(0, 8)}`, steps: [{ id: 'echo', type: 'transform', input: { got: '{% input.body %}' } }] },
    });
    expect(wf.status).toBe(201);
    const hook = await gw('/webhooks', {
      headers: withKey(tenant.test_key),
      body: { name: 'outage', workflow_id: wf.body.id, verification: { type: 'hmac' } },
    });
    const secret = hook.body.secret as string;
    const deliver = (i: number) => {
      const id = `msg_${i}_${randomUUID()}`;
      const ts = Math.floor(Date.now() / 1000);
      const body = JSON.stringify({ i });
      return gw(hook.body.url as string, {
        headers: { 'content-type': 'application/json', 'webhook-id': id, 'webhook-timestamp': String(ts), 'webhook-signature': sign(secret, id, ts, body) },
        body,
      });
    };

    const pid = processIds(env.pidDir, 'run')[0];
    process.kill(pid, 'SIGKILL');
    await processExited(pid);
    const answers = await Promise.all([0, 1, 2, 3, 4].map(deliver));
    expect(answers.map((a) => a.status)).toEqual([202, 202, 202, 202, 202]);
    // Each answer names the run its delivery will start, before the run exists.
    const promised = answers.map((a) => a.body.run_id as string);
    expect(promised.every((id) => typeof id === 'string') && answers.every((a) => typeof a.body.delivery_id === 'string')).toBe(true);
    expect(new Set(promised).size).toBe(5);

    await startProcess({
      name: 'run',
      entry: serviceEntry('run'),
      env: env.serviceEnv.run,
      healthUrl: `${env.serviceUrls.run}/actuator/health`,
      pidDir: env.pidDir,
    });

    const listRuns = async () => (await gw(`/run/executions?workflow_id=${wf.body.id as string}`, { headers: withKey(tenant.test_key) })).body.data ?? [];
    await eventually('the five runs started', async () => ((await listRuns()).length === 5 ? true : undefined), 30_000);
    const logs = (await gw(`/webhooks/${hook.body.id as string}/logs`, { headers: withKey(tenant.test_key) })).body.data ?? [];
    expect(logs.map((d) => d.outcome)).toEqual(['accepted', 'accepted', 'accepted', 'accepted', 'accepted']);
    expect(new Set(logs.map((d) => d.run_id))).toEqual(new Set(promised));
    // Reconciler passes after the restart start nothing more.
    await sleep(2500);
    const runs = await listRuns();
    expect(runs).toHaveLength(5);
    expect(new Set(runs.map((r) => r.id))).toEqual(new Set(promised));
  }, 90_000);

  it('refuses at intake (413) a delivery whose start NATS could not carry, even where RUN_INPUT_LIMIT_BYTES is larger', async () => {
    // A webhook service told the run service takes 4 MiB, on a NATS server that carries 1 MiB a message: accepted,
    // such a delivery's run could never start (it used to be answered 202 and tried again every 2 s, forever).
    const restart = async (extra: Record<string, string>) => {
      for (const pid of processIds(env.pidDir, 'webhook')) {
        try {
          process.kill(pid, 'SIGTERM');
        } catch {
          continue; // gone already, its pid file not yet
        }
        await processExited(pid, 15_000);
      }
      await startProcess({
        name: 'webhook',
        entry: serviceEntry('webhook'),
        env: { ...env.serviceEnv.webhook, ...extra },
        healthUrl: `${env.serviceUrls.webhook}/actuator/health`,
        pidDir: env.pidDir,
      });
    };
    await restart({ RUN_INPUT_LIMIT_BYTES: String(4 * 1024 * 1024) });
    try {
      const wf = await gw('/api/v1/workflow/workflows', {
        headers: withKey(tenant.test_key),
        body: { name: `wf-${randomUUID().slice(0, 8)}`, steps: [{ id: 'echo', type: 'transform', input: { got: '{% input.body %}' } }] },
      });
      const hook = await gw('/webhooks', {
        headers: withKey(tenant.test_key),
        body: { name: 'unstartable', workflow_id: wf.body.id, verification: { type: 'none' } },
      });
      const refused = await gw(hook.body.url as string, { body: { blob: 'x'.repeat(1536 * 1024) }, timeoutMs: 30_000 });
      expect(refused.status).toBe(413);
      expect(refused.body).toMatchObject({ status: 413, code: 'input_too_large' });
      expect(refused.body.message).toMatch(/run-input limit \(NATS max_payload\)/);
      expect(refused.body.run_id).toBeUndefined();
      const [entry] = (await gw(`/webhooks/${hook.body.id as string}/logs`, { headers: withKey(tenant.test_key) })).body.data ?? [];
      expect(entry).toMatchObject({ outcome: 'rejected', status_code: 413, run_id: null });
      expect(entry.reason).toMatch(/over the limit of \d+ \(NATS max_payload\)/);
      const runs = (await gw(`/run/executions?workflow_id=${wf.body.id as string}`, { headers: withKey(tenant.test_key) })).body.data ?? [];
      expect(runs).toHaveLength(0);
    } finally {
      await restart({});
    }
  }, 120_000);
});
