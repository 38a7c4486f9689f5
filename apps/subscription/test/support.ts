import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT, call, e2eEnvironment, freePort, serviceEntry, startProcess, withKey, type ManagedProcess, type TestTenant } from '@platform/testing';

const run = promisify(execFile);
export const env = e2eEnvironment();
export type Json = Record<string, unknown>;
export const gw = (path: string, request?: Parameters<typeof call>[2]) => call<Json>(env.gatewayUrl, path, request);

export interface TestPlan {
  code: string;
  rate_limits?: { live: number; test: number; user: number };
  quotas?: Partial<Record<string, { included: number; limit: number | null; unit_price_minor: number; per: number }>>;
  base_price_minor?: number;
}

const TERMS = { included: 1_000_000, limit: null, unit_price_minor: 0, per: 1 };

/** A plan added the way an operator adds one: `npm run admin:plans -- add --file`, on the run's database. */
export async function addPlan(plan: TestPlan): Promise<void> {
  const file = join(mkdtempSync(join(tmpdir(), 'plan-')), 'plan.json');
  const quotas = Object.fromEntries(
    ['runs', 'ai_tokens', 'storage_bytes', 'notifications', 'active_workflows', 'seats'].map((m) => [m, plan.quotas?.[m] ?? TERMS]),
  );
  writeFileSync(
    file,
    JSON.stringify({
      code: plan.code,
      name: `Test ${plan.code}`,
      currency: 'EUR',
      base_price_minor: plan.base_price_minor ?? 1000,
      rate_limits: plan.rate_limits ?? { live: 10_000, test: 10_000, user: 10_000 },
      quotas,
    }),
  );
  await run('node', [join(REPO_ROOT, 'apps/subscription/dist/src/cli/plans.js'), 'add', '--file', file], {
    env: { ...process.env, DATABASE_URL: env.databaseUrl },
  });
}

export async function choosePlan(tenant: TestTenant, plan: string): Promise<void> {
  const res = await gw('/subscription/current', { method: 'PUT', headers: withKey(tenant.live_key), body: { plan } });
  if (res.status !== 200) throw new Error(`plan change failed: ${res.status} ${res.text}`);
}

/** A second replica of the subscription service, on its own port, beside the platform's. */
export async function startSubscriptionReplica(): Promise<{ url: string; process: ManagedProcess }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const replica = await startProcess({
    name: 'subscription',
    entry: serviceEntry('subscription'),
    env: { ...env.serviceEnv.subscription, PORT: String(port) },
    healthUrl: `${url}/actuator/health`,
  });
  return { url, process: replica };
}

export const usageOf = (body: Json, metric: string) =>
  (body.metrics as { metric: string; used: number; sandbox_used: number; limit: number | null }[]).find((m) => m.metric === metric)!;
