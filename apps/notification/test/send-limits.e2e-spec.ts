import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { REPO_ROOT, call, createTenant, e2eEnvironment, eventually, sleep, withKey, type TestTenant } from '@platform/testing';
import { StandIn } from './stand-ins.js';

const env = e2eEnvironment();
type Json = Record<string, unknown> & { data?: Json[] };
const gw = (path: string, request?: Parameters<typeof call>[2]) => call<Json>(env.gatewayUrl, path, request);
const run = randomBytes(3).toString('hex');
const SMALL = `notify-small-${run}`;
const BIGGER = `notify-bigger-${run}`;

/** A plan added the way an operator does (`npm run admin:plans -- add`), with these notification limits. */
async function addPlan(code: string, perMinute: number): Promise<void> {
  const terms = { included: 1_000_000, limit: null, unit_price_minor: 0, per: 1 };
  const quotas = Object.fromEntries(['runs', 'ai_tokens', 'storage_bytes', 'notifications', 'active_workflows', 'seats'].map((m) => [m, terms]));
  const file = join(mkdtempSync(join(tmpdir(), 'plan-')), 'plan.json');
  const plan = {
    code,
    name: code,
    currency: 'USD',
    base_price_minor: 0,
    rate_limits: { live: 10_000, test: 10_000, user: 10_000 },
    notification_limits: { per_minute: perMinute, per_day: 10_000 },
    quotas,
  };
  writeFileSync(file, JSON.stringify(plan));
  await promisify(execFile)('node', [join(REPO_ROOT, 'apps/subscription/dist/src/cli/plans.js'), 'add', '--file', file], {
    env: { ...process.env, DATABASE_URL: env.databaseUrl },
  });
}

async function choosePlan(tenant: TestTenant, plan: string): Promise<void> {
  const res = await gw('/subscription/current', { method: 'PUT', headers: withKey(tenant.live_key), body: { plan } });
  expect(res.status).toBe(200);
}

/** The window is a calendar minute: start early in one so a sequence fits in it. */
async function earlyInAMinute(): Promise<void> {
  const intoMinute = Date.now() % 60_000;
  if (intoMinute > 35_000) await sleep(60_000 - intoMinute + 200);
}

describe("per-tenant sending limits from the tenant's plan", () => {
  let tenant: TestTenant;
  let other: TestTenant;
  const teams = new StandIn();

  beforeAll(async () => {
    await teams.start();
    [tenant, other] = await Promise.all([
      createTenant(env.gatewayUrl, env.adminToken, 'notify-limits'),
      createTenant(env.gatewayUrl, env.adminToken, 'notify-limits-b'),
      addPlan(SMALL, 5),
      addPlan(BIGGER, 40),
    ]);
    await choosePlan(tenant, SMALL);
  }, 60_000);

  afterAll(async () => {
    await teams.stop();
  });

  it('lists the plans with their notification limits', async () => {
    const plans = await gw('/subscription/plans', { headers: withKey(tenant.live_key) });
    const byCode = new Map((plans.body.data ?? []).map((p) => [p.code, p]));
    expect(byCode.get('free')?.notification_limits).toEqual({ per_minute: 600, per_day: 20_000 });
    expect(byCode.get('pro')?.notification_limits).toEqual({ per_minute: 3_000, per_day: 100_000 });
    expect(byCode.get(SMALL)?.notification_limits).toEqual({ per_minute: 5, per_day: 10_000 });
  });

  it('answers 429 with Retry-After past the plan limit, records platform notices as rate_limited, leaves other tenants alone, and follows a plan change', async () => {
    await earlyInAMinute();
    const path = `/limits-${randomUUID()}`;
    const ch = await gw('/notifications/channels', {
      headers: withKey(tenant.test_key),
      body: { name: 'l', kind: 'teams', teams: { webhook_url: `${teams.url}${path}` } },
    });
    const body = { channel_id: ch.body.id, body: 'counted' };
    const send = () => gw('/notifications/send', { headers: withKey(tenant.test_key), body });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await send()).status);
    expect(statuses).toEqual([202, 202, 202, 202, 202]);
    const over = await send();
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({ status: 429, error: 'Too Many Requests', message: 'Notification sending limit per minute reached' });
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(over.headers.get('retry-after'))).toBeLessThanOrEqual(60);

    // A platform notice over the limit is kept in the history as rate_limited, not sent.
    const wf = await gw('/api/v1/workflow/workflows', {
      headers: withKey(tenant.test_key),
      body: { name: 'limited', steps: [{ id: 'f', type: 'fail', input: { message: 'x' } }], settings: { alerts: { on_failure: { channel_id: ch.body.id } } } },
    });
    await gw('/v1/automations/run', { headers: withKey(tenant.test_key), body: { automation_id: wf.body.id, input: {} } });
    const limited = await eventually(
      'the rate-limited alert',
      async () => {
        const res = await gw(`/notifications/history?status=rate_limited&channel_id=${ch.body.id as string}`, { headers: withKey(tenant.test_key) });
        return res.body.data?.[0];
      },
      20_000,
    );
    expect(limited).toMatchObject({
      source: 'platform',
      status: 'rate_limited',
      attempts: [expect.objectContaining({ outcome: 'rate_limited', status_code: 429 })],
    });

    // Another tenant (on the default plan) is not held by this one's count.
    const otherSend = await gw('/notifications/send', {
      headers: withKey(other.test_key),
      body: { destination: { kind: 'teams', to: `${teams.url}${path}-b` }, body: 'fine' },
    });
    expect(otherSend.status).toBe(202);

    // A bigger plan: the notification service hears the change and the same minute's count goes on under the new limit.
    await choosePlan(tenant, BIGGER);
    await eventually('a send accepted under the bigger plan', async () => ((await send()).status === 202 ? true : undefined), 10_000, 100);
    let accepted = 1;
    let refused: Awaited<ReturnType<typeof send>> | undefined;
    while (!refused && accepted < 60) {
      const res = await send();
      if (res.status === 202) accepted++;
      else refused = res;
    }
    expect(refused?.status).toBe(429);
    // The minute's count includes the refused attempts before the change: fewer than 40 more were accepted, never the default's 600.
    expect(accepted).toBeGreaterThan(10);
    expect(accepted).toBeLessThan(40);
  }, 120_000);
});
