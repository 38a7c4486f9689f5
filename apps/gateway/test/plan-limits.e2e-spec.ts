import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SERVICE_NAMES, envStem } from '@platform/common';
import {
  REPO_ROOT,
  call,
  createTenant,
  e2eEnvironment,
  freePort,
  serviceEntry,
  sleep,
  startProcess,
  withKey,
  type ApiResponse,
  type ManagedProcess,
  type TestTenant,
} from '@platform/testing';

const env = e2eEnvironment();
const run = randomBytes(3).toString('hex');
const PLAN_A = `gw-a-${run}`;
const PLAN_B = `gw-b-${run}`;
type Json = Record<string, unknown>;

type Terms = { included: number; limit: number | null; unit_price_minor: number; per: number };

/** A plan added the way an operator does (`npm run admin:plans -- add`), with these per-minute limits (and quotas, unlimited unless given). */
async function addPlan(code: string, rate: { live: number; test: number; user: number }, capped: Record<string, Terms> = {}): Promise<void> {
  const terms = { included: 1_000_000, limit: null, unit_price_minor: 0, per: 1 };
  const quotas = Object.fromEntries(['runs', 'ai_tokens', 'storage_bytes', 'notifications', 'active_workflows', 'seats'].map((m) => [m, capped[m] ?? terms]));
  const file = join(mkdtempSync(join(tmpdir(), 'plan-')), 'plan.json');
  writeFileSync(file, JSON.stringify({ code, name: code, currency: 'USD', base_price_minor: 0, rate_limits: rate, quotas }));
  await promisify(execFile)('node', [join(REPO_ROOT, 'apps/subscription/dist/src/cli/plans.js'), 'add', '--file', file], {
    env: { ...process.env, DATABASE_URL: env.databaseUrl },
  });
}

/** Another gateway process in front of the same services, NATS namespace and counters as the platform's. */
async function startGateway(extra: Record<string, string> = {}): Promise<{ url: string; gateway: ManagedProcess }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const common = env.serviceEnv.account;
  const upstreams = Object.fromEntries(SERVICE_NAMES.map((name) => [`${envStem(name)}_URL`, env.serviceUrls[name]]));
  const gateway = await startProcess({
    name: 'gateway',
    entry: serviceEntry('gateway'),
    env: {
      ...upstreams,
      GATEWAY_PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      NATS_URL: common.NATS_URL ?? 'nats://127.0.0.1:4222',
      NATS_NAMESPACE: common.NATS_NAMESPACE ?? '',
      RATE_LIMIT_KEY_PREFIX: common.RATE_LIMIT_KEY_PREFIX ?? 'rl',
      ...extra,
    },
    healthUrl: `${url}/actuator/health/liveness`,
  });
  return { url, gateway };
}

const headers = (res: ApiResponse) => ({
  limit: res.headers.get('x-ratelimit-limit'),
  remaining: res.headers.get('x-ratelimit-remaining'),
  reset: res.headers.get('x-ratelimit-reset'),
});

/** Counters start afresh each minute: a sequence that must stay in one window skips a minute's last seconds. */
async function withinOneWindow(seconds = 20): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < seconds * 1000) await sleep(left + 50);
}

/** Calls until the gateway applies `limit` to this key (it learns the key's tenant and plan from the first answers). */
async function warmUp(url: string, key: string, limit: string): Promise<ApiResponse<Json>> {
  for (let i = 0; i < 100; i++) {
    const res = await call<Json>(url, '/subscription/current', { headers: withKey(key) });
    if (headers(res).limit === limit) return res;
    await sleep(50);
  }
  throw new Error(`the gateway at ${url} never applied the limit ${limit}`);
}

async function newKey(tenant: TestTenant, name: string, scopes: string[]): Promise<string> {
  const created = await call<Json>(env.gatewayUrl, '/account/api-keys', {
    method: 'POST',
    headers: withKey(tenant.live_key),
    body: { name: `${name}-${run}`, type: 'tenant', scopes, data_plane_id: tenant.production_data_plane_id },
  });
  if (created.status !== 201) throw new Error(`key creation failed: ${created.status} ${created.text}`);
  return created.body.key as string;
}

describe('rate limits from the tenant plan', () => {
  let tenant: TestTenant;
  let manager: string;
  let shared: string;
  let second: { url: string; gateway: ManagedProcess };

  beforeAll(async () => {
    await Promise.all([addPlan(PLAN_A, { live: 20, test: 40, user: 20 }), addPlan(PLAN_B, { live: 30, test: 60, user: 30 })]);
    tenant = await createTenant(env.gatewayUrl, env.adminToken, 'plan-limits');
    // The tests spend the live and test keys' budgets; plan changes and key creation go through a key of their own.
    manager = await newKey(tenant, 'manager', ['*']);
    shared = await newKey(tenant, 'shared', ['subscription:read']);
    const changed = await call(env.gatewayUrl, '/subscription/current', { method: 'PUT', headers: withKey(manager), body: { plan: PLAN_A } });
    expect(changed.status).toBe(200);
    second = await startGateway();
  }, 60_000);

  afterAll(async () => {
    await second?.gateway.stop();
  });

  it.each([
    ['live', 20],
    ['test', 40],
  ] as const)(
    "answers 429 after the plan's %s-key limit of %i with exact headers",
    async (kind, limit) => {
      await withinOneWindow();
      const key = kind === 'live' ? tenant.live_key : tenant.test_key;
      let res = await warmUp(env.gatewayUrl, key, String(limit));
      const reset = headers(res).reset;
      let remaining = Number(headers(res).remaining);
      while (res.status !== 429) {
        expect(res.status).toBe(200);
        res = await call<Json>(env.gatewayUrl, '/subscription/current', { headers: withKey(key) });
        if (res.status === 429) break;
        expect(headers(res)).toEqual({ limit: String(limit), remaining: String(remaining - 1), reset });
        remaining--;
      }
      expect(remaining).toBe(0);
      expect(headers(res)).toEqual({ limit: String(limit), remaining: '0', reset });
      expect(res.body).toEqual({
        error: 'Too Many Requests',
        code: 'rate_limited',
        message: `Rate limit exceeded: ${limit} requests per 60 s for this API key`,
        status: 429,
        request_id: res.headers.get('x-request-id'),
      });
      const retryAfter = Number(res.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(Math.max(1, Math.ceil(Number(reset) - Date.now() / 1000)));
    },
    60_000,
  );

  it('shares one budget between two gateway processes', async () => {
    const key = shared;
    await withinOneWindow(30);
    const gateways = [env.gatewayUrl, second.url];
    await warmUp(gateways[0], key, '20');
    await warmUp(gateways[1], key, '20');
    const seen: ApiResponse<Json>[] = [];
    for (let i = 0; i < 30; i++) seen.push(await call<Json>(gateways[i % 2], '/subscription/current', { headers: withKey(key) }));
    const remainings = seen.filter((r) => r.status === 200).map((r) => Number(headers(r).remaining));
    // One counter for both: the remaining budget falls by one per request, whichever gateway took it.
    remainings.forEach((value, i) => i > 0 && expect(value).toBe(remainings[i - 1] - 1));
    expect(remainings.at(-1)).toBe(0);
    expect(seen.filter((r) => r.status === 429).length).toBe(30 - remainings.length);
    for (const url of gateways) expect((await call(url, '/subscription/current', { headers: withKey(key) })).status).toBe(429);
  }, 60_000);

  it('moves to the new limit within seconds of a plan change, on every gateway', async () => {
    const changed = await call(env.gatewayUrl, '/subscription/current', { method: 'PUT', headers: withKey(manager), body: { plan: PLAN_B } });
    expect(changed.status).toBe(200);
    const started = Date.now();
    for (const url of [env.gatewayUrl, second.url]) {
      for (;;) {
        const res = await call(url, '/subscription/current', { headers: withKey(tenant.test_key) });
        if (headers(res).limit === '60') break;
        // Within seconds (the directory refreshes on the plan-change event); the bound leaves a loaded machine room.
        expect(Date.now() - started).toBeLessThan(15_000);
        await sleep(100);
      }
    }
  }, 30_000);
});

describe('plan limits with a private Redis that stops', () => {
  let redis: ChildProcess | undefined;
  let gw: { url: string; gateway: ManagedProcess } | undefined;
  let tenant: TestTenant;

  beforeAll(async () => {
    const port = await freePort();
    redis = spawn('/usr/bin/redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    tenant = await createTenant(env.gatewayUrl, env.adminToken, 'redis-down');
    await sleep(300);
    gw = await startGateway({ REDIS_URL: `redis://127.0.0.1:${port}` });
  }, 60_000);

  afterAll(async () => {
    await gw?.gateway.stop();
    if (redis && redis.exitCode === null) redis.kill('SIGKILL');
  });

  it('keeps serving when Redis stops, warns, and reports itself degraded', async () => {
    const url = gw!.url;
    await warmUp(url, tenant.test_key, '1200');
    const healthy = await call<Json>(url, '/actuator/health');
    expect(healthy.status).toBe(200);
    expect(healthy.body).toMatchObject({ status: 'UP', gateway: { status: 'UP', components: { redis: { status: 'UP' }, nats: { status: 'UP' } } } });

    const exited = new Promise((resolve) => redis!.once('exit', resolve));
    redis!.kill('SIGTERM');
    await exited;
    for (let i = 0; i < 5; i++) {
      const res = await call<Json>(url, '/subscription/current', { headers: withKey(tenant.test_key), timeoutMs: 2_000 });
      expect(res.status).toBe(200);
      expect(res.body.plan).toBe('free');
      if (i > 0) expect(headers(res)).toEqual({ limit: null, remaining: null, reset: null });
    }
    const health = await call<Json>(url, '/actuator/health');
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ status: 'DEGRADED', gateway: { status: 'DEGRADED', components: { redis: { status: 'DOWN' } } } });
    const warnings = () =>
      gw!.gateway
        .tail()
        .split('\n')
        .filter((line) => line.includes('rate limiting unavailable')).length;
    for (let i = 0; i < 40 && warnings() === 0; i++) await sleep(100);
    // Once per 10 s at most, however many requests and reconnection attempts there were.
    expect(warnings()).toBe(1);
  }, 60_000);
});

describe('quotas on a gateway without rate limits', () => {
  const PLAN = `gw-q-${run}`;
  let tenant: TestTenant;
  let unlimited: { url: string; gateway: ManagedProcess } | undefined;
  let open: { url: string; gateway: ManagedProcess } | undefined;

  beforeAll(async () => {
    await addPlan(PLAN, { live: 10_000, test: 10_000, user: 10_000 }, { active_workflows: { included: 2, limit: 2, unit_price_minor: 0, per: 1 } });
    tenant = await createTenant(env.gatewayUrl, env.adminToken, 'quota-no-rate-limit');
    const changed = await call(env.gatewayUrl, '/subscription/current', { method: 'PUT', headers: withKey(tenant.live_key), body: { plan: PLAN } });
    expect(changed.status).toBe(200);
    // Quotas are their own setting: rate limiting off leaves them on; QUOTAS_ENABLED=false turns them off.
    [unlimited, open] = await Promise.all([
      startGateway({ RATE_LIMIT_ENABLED: 'false' }),
      startGateway({ RATE_LIMIT_ENABLED: 'false', QUOTAS_ENABLED: 'false' }),
    ]);
  }, 60_000);

  afterAll(async () => {
    await Promise.all([unlimited?.gateway.stop(), open?.gateway.stop()]);
  });

  it('refuses the workflow past a used-up active_workflows quota to a live key with RATE_LIMIT_ENABLED=false, unless QUOTAS_ENABLED=false', async () => {
    const create = (url: string, body: Json = { name: 'quota', steps: [{ id: 'a', type: 'transform', input: {} }] }) =>
      call<Json>(url, '/api/v1/workflow/workflows', { method: 'POST', headers: withKey(tenant.live_key), body });
    for (let i = 0; i < 2; i++) {
      const made = await create(unlimited!.url);
      expect(made.status).toBe(201);
      // No rate limiting on this gateway: no counters, no headers.
      expect(made.headers.get('x-ratelimit-limit')).toBeNull();
    }
    // The used-up quota reaches the gateway as a pushed event. The probe is a body the run service
    // refuses (400, no workflow), so waiting for it creates nothing.
    let refused: ApiResponse<Json> | undefined;
    for (let i = 0; i < 200 && !refused; i++) {
      const probe = await create(unlimited!.url, {});
      if (probe.status === 429) refused = probe;
      else {
        expect(probe.status).toBe(400);
        await sleep(100);
      }
    }
    expect(refused?.body).toMatchObject({ code: 'rate_limited', message: expect.stringMatching(/^Quota exceeded: active_workflows \(2 per billing period\)/) });
    const third = await create(unlimited!.url);
    expect(third.status).toBe(429);
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
    // Reads are never refused, and neither are test keys.
    expect((await call(unlimited!.url, '/api/v1/workflow/workflows', { headers: withKey(tenant.live_key) })).status).toBe(200);
    expect(
      (
        await call(unlimited!.url, '/api/v1/workflow/workflows', {
          method: 'POST',
          headers: withKey(tenant.test_key),
          body: { name: 'sandbox', steps: [{ id: 'a', type: 'transform', input: {} }] },
        })
      ).status,
    ).toBe(201);
    // With quotas switched off the request reaches the run service (its 400 for the empty body).
    expect((await create(open!.url, {})).status).toBe(400);
  }, 60_000);
});
