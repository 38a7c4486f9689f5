// Issue 13: what plan limits and quotas cost at the gateway. GET /account/me (authenticated, reads
// no table) with a live key of a tenant on a plan, through the platform's gateway (limits from
// the plan: one Redis round trip, the tenant and plan looked up in memory, the quota check) and
// through a second gateway in front of the same services with RATE_LIMIT_ENABLED=false and QUOTAS_ENABLED=false. Runs
// alternate, twice each, so drift on a shared machine falls on both.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT, createTenant, freePort, serviceEntry, startProcess } from '@platform/testing';
import { load, progress, row } from '../harness.js';

export const name = 'subscription';
export const services = ['account', 'subscription'];
const adminToken = randomBytes(32).toString('base64url');
export const env = { PLATFORM_ADMIN_TOKEN: adminToken, MASTER_KEY: randomBytes(32).toString('base64') };

const METRICS = ['runs', 'ai_tokens', 'storage_bytes', 'notifications', 'active_workflows', 'seats'];

/** A plan no benchmark reaches (so no request is refused), with one quota used up so the quota check runs in full. */
async function addBenchPlan(databaseUrl) {
  const quotas = Object.fromEntries(METRICS.map((m) => [m, { included: 0, limit: m === 'seats' ? 0 : null, unit_price_minor: 0, per: 1 }]));
  const file = join(mkdtempSync(join(tmpdir(), 'plan-')), 'plan.json');
  const max = 100_000_000;
  writeFileSync(
    file,
    JSON.stringify({ code: 'bench', name: 'Bench', currency: 'USD', base_price_minor: 0, rate_limits: { live: max, test: max, user: max }, quotas }),
  );
  await promisify(execFile)('node', [join(REPO_ROOT, 'apps/subscription/dist/src/cli/plans.js'), 'add', '--file', file], {
    env: { ...process.env, DATABASE_URL: databaseUrl },
  });
}

async function startGateway(platform, name, settings) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const upstreams = Object.fromEntries(Object.entries(platform.serviceUrls).map(([svc, u]) => [`${svc.toUpperCase().replace(/-/g, '_')}_URL`, u]));
  const gateway = await startProcess({
    name,
    entry: serviceEntry('gateway'),
    env: { ...upstreams, ...platform.serviceEnv.account, GATEWAY_PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...settings },
    healthUrl: `${url}/actuator/health/liveness`,
  });
  return { url, gateway };
}

export async function run({ platform, database, duration, connections }) {
  await addBenchPlan(database.url);
  const tenant = await createTenant(platform.gatewayUrl, adminToken, 'bench-subscription');
  const headers = { 'x-api-key': tenant.live_key };
  const change = await fetch(`${platform.gatewayUrl}/subscription/current`, {
    method: 'PUT',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ plan: 'bench' }),
  });
  if (change.status !== 200) throw new Error(`plan change failed: ${change.status}`);
  // Quotas are a setting of their own: the baseline turns both off.
  const off = await startGateway(platform, 'gateway-unlimited', { RATE_LIMIT_ENABLED: 'false', QUOTAS_ENABLED: 'false' });
  // The limiter as it was before plans: fixed per-kind limits in Redis, no plan lookup, no quotas.
  const fixed = await startGateway(platform, 'gateway-fixed', {
    PLAN_LIMITS_ENABLED: 'false',
    QUOTAS_ENABLED: 'false',
    RATE_LIMIT_LIVE_PER_MINUTE: '100000000',
  });
  try {
    const on = `${platform.gatewayUrl}/account/me`;
    const plain = `${off.url}/account/me`;
    const counted = `${fixed.url}/account/me`;
    progress('warming up (the gateway learns the key’s tenant and plan)');
    await load(on, { duration: 2, connections, headers });
    await load(plain, { duration: 2, connections, headers });
    await load(counted, { duration: 2, connections, headers });
    const probe = await fetch(on, { headers });
    if (probe.headers.get('x-ratelimit-limit') !== '100000000') throw new Error(`the plan's limit is not applied (${probe.headers.get('x-ratelimit-limit')})`);
    progress(`throughput, ${connections} connections, ${duration} s each, alternating`);
    const withLimits = [];
    const without = [];
    const fixedOnly = [];
    for (let i = 0; i < 2; i++) {
      withLimits.push(await load(on, { duration, connections, headers }));
      without.push(await load(plain, { duration, connections, headers }));
      fixedOnly.push(await load(counted, { duration, connections, headers }));
    }
    const mean = (runs) => ({ ...runs[1], rps: (runs[0].rps + runs[1].rps) / 2 });
    const a = mean(withLimits);
    const b = mean(without);
    const c = mean(fixedOnly);
    const errors = [...withLimits, ...without, ...fixedOnly].reduce(
      (n, r) => n + (r.errors ?? 0) + Object.entries(r.codes).reduce((m, [code, count]) => m + (code.startsWith('2') ? 0 : count), 0),
      0,
    );
    return [
      row(`GET /account/me, plan limits + quotas on, ${connections} conns`, a),
      row(`GET /account/me, limits off, ${connections} conns`, b),
      row(`GET /account/me, fixed limits (no plans), ${connections} conns`, c),
      `limits and quotas cost ${(100 - (a.rps / b.rps) * 100).toFixed(1)}% of throughput (target < 10%); ` +
        `plans and quotas on top of the fixed Redis limits: ${(100 - (a.rps / c.rps) * 100).toFixed(1)}%; ${errors} non-2xx or errors`,
    ];
  } finally {
    await off.gateway.stop();
    await fixed.gateway.stop();
  }
}
