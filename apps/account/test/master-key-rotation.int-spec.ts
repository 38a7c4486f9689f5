import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  REPO_ROOT,
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

const CLI = resolve(REPO_ROOT, 'apps/account/dist/src/cli/admin.js');

function reseal(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [CLI, 'reseal-secrets'], { env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('exit', (code) => done({ code, stdout, stderr }));
  });
}

/**
 * A master key rotation as docs/configuration.md describes it, as a rolling deployment: each step
 * starts the next configuration beside the running one (same database and NATS namespace, so
 * requests reach both) before the old one stops, while a client keeps calling. API keys (hashed)
 * and secrets (data keys wrapped under the ring) keep working at every step, and after
 * `reseal-secrets` the old key is dropped with nothing lost.
 */
describe('master key rotation', () => {
  const oldKey = randomBytes(32).toString('base64');
  const newKey = randomBytes(32).toString('base64');
  const adminToken = randomBytes(32).toString('base64url');
  const namespace = `rot-${randomBytes(3).toString('hex')}`;
  let database: TestDatabase;
  const running: RunningPlatform[] = [];

  const start = async (keys: Record<string, string>) => {
    const platform = await startPlatform({
      databaseUrl: database.url,
      services: ['account', 'storage'],
      // No key cache at the gateway: every request is verified by whichever account replica answers.
      env: { PLATFORM_ADMIN_TOKEN: adminToken, NATS_NAMESPACE: namespace, RATE_LIMIT_ENABLED: 'false', KEY_CACHE_TTL_MS: '0', ...keys },
    });
    running.push(platform);
    return platform;
  };
  const stop = async (platform: RunningPlatform) => {
    running.splice(running.indexOf(platform), 1);
    await platform.stop();
  };

  beforeAll(async () => {
    database = await createTestDatabase('key_rotation');
  }, 60_000);

  afterAll(async () => {
    for (const platform of running.splice(0)) await platform.stop();
    await database?.drop();
    await removeNatsNamespace(namespace);
  });

  it('keeps API keys and secrets working through every step, and after the old key is removed', async () => {
    const first = await start({ MASTER_KEY: oldKey });
    const tenant: TestTenant = await createTenant(first.gatewayUrl, adminToken, 'rotation');
    const created = await call(first.gatewayUrl, '/storage/secrets', { headers: withKey(tenant.test_key), body: { name: 'ROTATING', value: 'v0' } });
    expect(created.status).toBe(201);

    // A client calling all along, through every gateway up: key verification and a secret write
    // (which unwraps the data key). It pauses only while a replaced configuration shuts down: a
    // request cut by a stopping process says nothing about keys.
    let gateways = [first.gatewayUrl];
    let flowing = true;
    let paused: Promise<void> | undefined;
    let requests = 0;
    const failures: string[] = [];
    const flow = (async () => {
      while (flowing) {
        await paused;
        const at = gateways[requests % gateways.length];
        try {
          const me = await call(at, '/account/me', { headers: withKey(tenant.test_key) });
          const put = await call(at, '/storage/secrets/ROTATING', { method: 'PUT', headers: withKey(tenant.test_key), body: { value: `v${requests}` } });
          for (const res of [me, put]) if (res.status !== 200) failures.push(`${res.status} ${res.text}`);
        } catch (error) {
          failures.push(`${at}: ${(error as Error).message}`);
        }
        requests++;
      }
    })();
    const served = async (count: number) => {
      const until = requests + count;
      while (requests < until) await new Promise((r) => setTimeout(r, 50));
    };
    const roll = async (from: RunningPlatform, keys: Record<string, string>) => {
      const next = await start(keys);
      // both configurations serve side by side for a while
      gateways = [from.gatewayUrl, next.gatewayUrl];
      await served(6);
      let resume!: () => void;
      paused = new Promise((r) => (resume = r));
      await served(1); // the request in flight ends
      gateways = [next.gatewayUrl];
      await stop(from);
      resume();
      paused = undefined;
      return next;
    };

    // 1. every replica learns the new key, still sealing under the old one
    const second = await roll(first, { MASTER_KEYS: `${oldKey},${newKey}` });
    // 2. the new key becomes current; the old one only opens
    const third = await roll(second, { MASTER_KEYS: `${newKey},${oldKey}` });
    const minted = await call(third.gatewayUrl, `/api/v1/workflow/data-planes/${tenant.sandbox_data_plane_id}/api-keys`, {
      headers: withKey(tenant.test_key),
      body: { type: 'tenant', name: 'after rotation', scopes: ['secrets:read'] },
    });
    expect(minted.status).toBe(201);
    const resealed = await reseal({ DATABASE_URL: database.url, MASTER_KEYS: `${newKey},${oldKey}` });
    expect([resealed.code, resealed.stderr]).toEqual([0, '']);
    expect(resealed.stdout).toMatch(/the API key hash key: 1 re-sealed/);
    expect(resealed.stdout).toMatch(/storage data keys: all under the current key/);
    // 3. the old key is removed
    const last = await roll(third, { MASTER_KEYS: newKey });
    await served(4);
    flowing = false;
    await flow;

    expect(failures).toEqual([]);
    expect(requests).toBeGreaterThan(15);
    for (const key of [tenant.test_key, tenant.live_key, (minted.body as { key: string }).key]) {
      expect((await call(last.gatewayUrl, '/account/me', { headers: withKey(key) })).status).toBe(200);
    }
    const again = await reseal({ DATABASE_URL: database.url, MASTER_KEYS: newKey });
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/the API key hash key: 0 re-sealed, 1 already under the current key/);
  }, 300_000);
});
