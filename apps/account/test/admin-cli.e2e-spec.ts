import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from '@jest/globals';
import { REPO_ROOT, call, createTenant, e2eEnvironment, eventually, withKey } from '@platform/testing';

const env = e2eEnvironment();
const CLI = resolve(REPO_ROOT, 'apps/account/dist/src/cli/admin.js');
type Metric = { metric: string; used: number; sandbox_used: number };

/** The tenant's `seats` metric once it shows one seat used. */
const oneSeat = async (key: string): Promise<Metric | undefined> => {
  const res = await call<{ metrics: Metric[] }>(env.gatewayUrl, '/subscription/usage', { headers: withKey(key) });
  const seats = res.status === 200 ? res.body.metrics.find((m) => m.metric === 'seats') : undefined;
  return seats?.used === 1 ? seats : undefined;
};

describe('npm run admin -- create-tenant on a running platform', () => {
  it('meters the owner as one seat, like a tenant made over the API', async () => {
    const suffix = randomBytes(3).toString('hex');
    // On the platform's database, with the account service's settings (its master key hashes the keys).
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [CLI, 'create-tenant', '--name', `cli-${suffix}`, '--email', `cli-${suffix}@acme.test`, '--json'],
      { env: { ...process.env, ...env.serviceEnv.account, DATABASE_URL: env.databaseUrl } },
    );
    const made = JSON.parse(stdout) as { tenant_id: string; live_key: string };
    const viaApi = await createTenant(env.gatewayUrl, env.adminToken, `api-${suffix}`);

    // The API's tenant is the reference: one seat, on the live data plane.
    const reference = await eventually('the API tenant has its seat', () => oneSeat(viaApi.live_key));
    // The command's seat waits in the account outbox until the service's relay publishes it (a few seconds).
    const seats = await eventually('the command tenant has its seat', () => oneSeat(made.live_key), 20_000);
    expect(seats).toEqual(reference);
    expect(seats).toMatchObject({ used: 1, sandbox_used: 0 });
  }, 60_000);
});
