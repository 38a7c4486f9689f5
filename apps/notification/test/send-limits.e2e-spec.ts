import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { call, createTenant, e2eEnvironment, eventually, sleep, withKey, type TestTenant } from '@platform/testing';
import { StandIn } from './stand-ins.js';

const env = e2eEnvironment();
type Json = Record<string, unknown> & { data?: Json[] };
const gw = (path: string, request?: Parameters<typeof call>[2]) => call<Json>(env.gatewayUrl, path, request);

/** NOTIFICATION_LIMIT_PER_MINUTE's default, which the e2e platform keeps. */
const PER_MINUTE = 600;

describe('per-tenant sending limits', () => {
  let tenant: TestTenant;
  let other: TestTenant;
  const teams = new StandIn();

  beforeAll(async () => {
    await teams.start();
    [tenant, other] = await Promise.all([
      createTenant(env.gatewayUrl, env.adminToken, 'notify-limits'),
      createTenant(env.gatewayUrl, env.adminToken, 'notify-limits-b'),
    ]);
  });

  afterAll(async () => {
    await teams.stop();
  });

  it('answers 429 with Retry-After past the limit per minute, records platform notices as rate_limited, and leaves other tenants alone', async () => {
    // The window is a calendar minute: start early in one so the whole test fits in it.
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 40_000) await sleep(60_000 - intoMinute + 200);
    const path = `/limits-${randomUUID()}`;
    const ch = await gw('/notifications/channels', {
      headers: withKey(tenant.test_key),
      body: { name: 'l', kind: 'teams', teams: { webhook_url: `${teams.url}${path}` } },
    });
    const body = { channel_id: ch.body.id, body: 'counted' };
    let accepted = 0;
    let next = 0;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next < PER_MINUTE) {
          next++;
          const res = await gw('/notifications/send', { headers: withKey(tenant.test_key), body });
          if (res.status === 202) accepted++;
        }
      }),
    );
    expect(accepted).toBe(PER_MINUTE);
    const over = await gw('/notifications/send', { headers: withKey(tenant.test_key), body });
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
      30_000,
    );
    expect(limited).toMatchObject({
      source: 'platform',
      status: 'rate_limited',
      attempts: [expect.objectContaining({ outcome: 'rate_limited', status_code: 429 })],
    });

    const otherSend = await gw('/notifications/send', {
      headers: withKey(other.test_key),
      body: { destination: { kind: 'teams', to: `${teams.url}${path}-b` }, body: 'fine' },
    });
    expect(otherSend.status).toBe(202);
  }, 150_000);
});
