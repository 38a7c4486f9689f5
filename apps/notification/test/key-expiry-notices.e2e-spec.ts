import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  call,
  createTenant,
  e2eEnvironment,
  eventually,
  freePort,
  processExited,
  processIds,
  serviceEntry,
  sleep,
  startProcess,
  withKey,
  type TestTenant,
} from '@platform/testing';
import { StandIn, type Received } from './stand-ins.js';

const env = e2eEnvironment();
type Json = Record<string, unknown> & { data?: Json[] };
const gw = (path: string, request?: Parameters<typeof call>[2]) => call<Json>(env.gatewayUrl, path, request);
const DAY_MS = 86_400_000;

/** Restarts one of the e2e platform's services in place (same port, same settings). */
async function restart(name: 'account' | 'notification', whileDown: () => Promise<void> = () => Promise.resolve()): Promise<void> {
  const pid = processIds(env.pidDir, name)[0];
  process.kill(pid, 'SIGTERM');
  await processExited(pid, 15_000);
  await whileDown();
  await startProcess({ name, entry: serviceEntry(name), env: env.serviceEnv[name], healthUrl: `${env.serviceUrls[name]}/actuator/health`, pidDir: env.pidDir });
}

describe('API key expiry notices', () => {
  let tenant: TestTenant;
  let other: TestTenant;
  let channelId: string;
  const slack = new StandIn();
  const path = `/expiring-${randomUUID()}`;
  const noticesAt = (keyName: string): Received[] => slack.at(path).filter((r) => JSON.stringify(r.body).includes(keyName));

  const createKey = async (name: string, expiresInMs: number) => {
    const res = await gw('/account/api-keys', {
      headers: withKey(tenant.live_key),
      body: {
        name,
        type: 'tenant',
        scopes: ['data:read'],
        data_plane_id: tenant.production_data_plane_id,
        expires_at: new Date(Date.now() + expiresInMs).toISOString(),
      },
    });
    expect(res.status).toBe(201);
    return res.body as { id: string; key: string; prefix: string; expires_at: string };
  };

  beforeAll(async () => {
    await slack.start();
    [tenant, other] = await Promise.all([
      createTenant(env.gatewayUrl, env.adminToken, 'key-notices'),
      createTenant(env.gatewayUrl, env.adminToken, 'key-notices-b'),
    ]);
    const channel = await gw('/notifications/channels', {
      headers: withKey(tenant.live_key),
      body: { name: 'security', kind: 'slack', slack: { webhook_url: `${slack.url}${path}` } },
    });
    expect(channel.status).toBe(201);
    channelId = channel.body.id as string;
  });

  afterAll(async () => {
    await slack.stop();
  });

  it('keeps per-environment notice settings, checks the channel, and isolates tenants', async () => {
    const empty = await gw('/notifications/notices', { headers: withKey(tenant.live_key) });
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({ api_key_expiring: null, updated_at: null });

    const unknown = await gw('/notifications/notices', {
      method: 'PUT',
      headers: withKey(tenant.live_key),
      body: { api_key_expiring: { channel_id: randomUUID() } },
    });
    expect(unknown.status).toBe(400);
    expect(JSON.stringify(unknown.body)).toContain('api_key_expiring.channel_id');
    // Another tenant's channel is as unknown as a made-up id.
    const foreign = await gw('/notifications/notices', {
      method: 'PUT',
      headers: withKey(other.live_key),
      body: { api_key_expiring: { channel_id: channelId } },
    });
    expect(foreign.status).toBe(400);
    expect(JSON.stringify(foreign.body)).toContain('api_key_expiring.channel_id');
    const malformed = await gw('/notifications/notices', {
      method: 'PUT',
      headers: withKey(tenant.live_key),
      body: { api_key_expiring: { channel_id: 'nope' } },
    });
    expect(malformed.status).toBe(400);

    const set = await gw('/notifications/notices', { method: 'PUT', headers: withKey(tenant.live_key), body: { api_key_expiring: { channel_id: channelId } } });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ api_key_expiring: { channel_id: channelId }, updated_at: expect.any(String) });
    expect((await gw('/notifications/notices', { headers: withKey(tenant.live_key) })).body).toEqual(set.body);

    // The other tenant, and the tenant's sandbox, have settings of their own.
    expect((await gw('/notifications/notices', { headers: withKey(other.live_key) })).body).toEqual({ api_key_expiring: null, updated_at: null });
    expect((await gw('/notifications/notices', { headers: withKey(tenant.test_key) })).body).toEqual({ api_key_expiring: null, updated_at: null });
  });

  it('sends the notice once per key about to expire, naming the key but never giving it away, across restarts and replicas', async () => {
    const name = `deployer-${randomUUID().slice(0, 8)}`;
    const key = await createKey(name, 2 * DAY_MS);
    const farName = `far-${randomUUID().slice(0, 8)}`;
    await createKey(farName, 30 * DAY_MS);

    const [notice] = await eventually('the expiry notice', () => Promise.resolve(noticesAt(name).length ? noticesAt(name) : undefined), 20_000);
    const text = JSON.stringify(notice.body);
    expect(text).toContain(`API key ${name} expires soon`);
    expect(text).toContain(key.prefix);
    expect(text).toContain(key.expires_at.slice(0, 10));
    expect(text).not.toContain(key.key);
    const history = await gw(`/notifications/history?channel_id=${channelId}`, { headers: withKey(tenant.live_key) });
    expect(history.body.data?.find((n) => n.subject === `API key ${name} expires soon`)).toMatchObject({ source: 'platform', template: 'api_key_expiring' });

    // A restart of the account service, then a second replica beside it: the key is not announced again.
    await restart('account');
    const port = await freePort();
    const replica = await startProcess({
      name: 'account',
      entry: serviceEntry('account'),
      env: { ...env.serviceEnv.account, PORT: String(port) },
      healthUrl: `http://127.0.0.1:${port}/actuator/health`,
    });
    try {
      await sleep(3000);
    } finally {
      await replica.stop();
    }
    expect(noticesAt(name)).toHaveLength(1);
    // Outside the window (7 days by default): no notice.
    expect(noticesAt(farName)).toHaveLength(0);
  }, 90_000);

  it('sends a notice announced while the notification service was down once it is back, once', async () => {
    const name = `while-down-${randomUUID().slice(0, 8)}`;
    await restart('notification', async () => {
      await createKey(name, DAY_MS);
      // Several passes of the account service's job (every 500 ms in e2e) announce it meanwhile.
      await sleep(2000);
    });
    await eventually('the notice queued while down', () => Promise.resolve(noticesAt(name).length ? true : undefined), 20_000);
    await sleep(1500);
    expect(noticesAt(name)).toHaveLength(1);
  }, 90_000);
});
