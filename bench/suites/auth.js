// Issue 3: what authentication costs when warm. GET /account/me (a tenant route that reads no
// table) through the gateway with a real API key, against the same route on a platform started
// with AUTH_MODE=bench-static (no credential checks). Rate limiting is off in both, so the
// difference is authentication: key format check, verification cache, usage recording.
import { randomBytes } from 'node:crypto';
import { createTenant, createTestDatabase, removeNatsNamespace, startPlatform } from '@platform/testing';
import { latency, load, progress, row } from '../harness.js';

export const name = 'auth';
export const services = ['account'];
const adminToken = randomBytes(32).toString('base64url');
export const env = { PLATFORM_ADMIN_TOKEN: adminToken, MASTER_KEY: randomBytes(32).toString('base64'), RATE_LIMIT_ENABLED: 'false' };

export async function run({ platform, duration, connections }) {
  const tenant = await createTenant(platform.gatewayUrl, adminToken, 'bench');
  const url = `${platform.gatewayUrl}/account/me`;
  const headers = { 'x-api-key': tenant.test_key };

  progress('starting a second platform with AUTH_MODE=bench-static');
  const database = await createTestDatabase('bench_noauth');
  const noauthNamespace = `bench-noauth-${process.pid}`;
  const open = await startPlatform({
    databaseUrl: database.url,
    services,
    env: { ...env, AUTH_MODE: 'bench-static', LOG_LEVEL: 'warn', NATS_NAMESPACE: noauthNamespace },
  });
  try {
    const openUrl = `${open.gatewayUrl}/account/me`;
    progress('warming up');
    await load(url, { duration: 2, connections, headers });
    await load(openUrl, { duration: 2, connections });
    progress(`latency, 1 client, ${duration} s each`);
    const al = await latency(url, { duration, headers });
    const nl = await latency(openUrl, { duration });
    progress(`throughput, ${connections} connections, ${duration} s each`);
    const at = await load(url, { duration, connections, headers });
    const nt = await load(openUrl, { duration, connections });
    return [
      row('GET /account/me, API key, 1 client', al),
      row('GET /account/me, no auth, 1 client', nl),
      row(`GET /account/me, API key, ${connections} conns`, at),
      row(`GET /account/me, no auth, ${connections} conns`, nt),
      `authentication costs ${(al.p50 - nl.p50).toFixed(3)} ms at p50 and ${(al.p99 - nl.p99).toFixed(3)} ms at p99 warm (target < 0.5 ms at p50); ` +
        `throughput with keys is ${((at.rps / nt.rps) * 100).toFixed(1)}% of no-auth`,
    ];
  } finally {
    await open.stop();
    await database.drop();
    await removeNatsNamespace(noauthNamespace);
  }
}
