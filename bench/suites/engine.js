// Issue 5: end-to-end throughput and latency of runs started with POST /v1/automations/run
// through the gateway until `succeeded`, at 50 concurrent clients: a one-step (transform)
// workflow and a five-step one. Issue 26: the same workflows again on a second platform with the
// services a real deployment runs beside the engine (trigger and webhook consuming run events,
// subscription metering every run, notification), so that what they cost per run shows.
import { randomBytes } from 'node:crypto';
import { call, createTenant } from '@platform/testing';
import { progress, row, runScript, withPlatform } from '../harness.js';

export const name = 'engine';
export const services = ['account', 'run'];
const adminToken = randomBytes(32).toString('base64url');
export const env = { PLATFORM_ADMIN_TOKEN: adminToken, MASTER_KEY: randomBytes(32).toString('base64'), RATE_LIMIT_ENABLED: 'false' };

/** The one-step workflow the engine's figures are read with (the telemetry suite uses it too). */
export const ONE_STEP = [{ id: 'double', type: 'transform', input: { value: '{% input.x * 2 %}' } }];

/** The services a deployment runs beside account and run; their cost per run is the second variant's difference. */
const BESIDE = ['trigger', 'webhook', 'subscription', 'notification'];

export async function run({ platform, duration, connections }) {
  const seconds = Math.max(20, duration);
  const engineOnly = await measure(platform, seconds, connections);
  progress(`again with ${BESIDE.join(', ')} running beside the engine`);
  const namespace = `${platform.serviceEnv.run.NATS_NAMESPACE}-deployment`;
  const beside = await withPlatform({ services: [...services, ...BESIDE], namespace, env }, (deployment) => measure(deployment, seconds, connections));
  return [...report(engineOnly, connections, ''), ...report(beside, connections, `, with ${BESIDE.join(', ')}`)];
}

function report({ r1, r5 }, connections, suffix) {
  return [
    row(`1-step run → succeeded, ${connections} clients${suffix}`, r1),
    row(`5-step run → succeeded, ${connections} clients${suffix}`, r5),
    `one-step${suffix}: ${Math.round(r1.rps)} runs/s completed (target ≥ 500), p99 ${r1.p99} ms (target < 250 ms); failed ${r1.failed}, errors ${r1.errors}`,
    `five-step${suffix}: ${Math.round(r5.rps)} runs/s completed, p99 ${r5.p99} ms; failed ${r5.failed}, errors ${r5.errors}`,
  ];
}

async function measure(platform, seconds, connections) {
  const tenant = await createTenant(platform.gatewayUrl, adminToken, 'bench');
  const headers = { 'x-api-key': tenant.test_key };
  const create = async (steps) =>
    (await call(platform.gatewayUrl, '/api/v1/workflow/workflows', { headers, body: { name: `bench-${steps.length}`, steps } })).body.id;
  const one = await create(ONE_STEP);
  const five = await create(
    Array.from({ length: 5 }, (_, i) => ({
      id: `s${i}`,
      type: 'transform',
      input: { value: i === 0 ? '{% input.x %}' : `{% steps.s${i - 1}.output.value + 1 %}` },
    })),
  );
  const namespace = platform.serviceEnv.run.NATS_NAMESPACE;
  const args = (wf, s) => [platform.gatewayUrl, tenant.test_key, wf, String(s), String(connections), namespace];
  progress('warming up');
  await runScript('engine-load.js', args(one, 3));
  progress(`one-step workflow, ${seconds} s at ${connections} clients`);
  const r1 = await runScript('engine-load.js', args(one, seconds));
  progress(`five-step workflow, ${seconds} s at ${connections} clients`);
  const r5 = await runScript('engine-load.js', args(five, seconds));
  return { r1, r5 };
}
