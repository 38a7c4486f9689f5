// Issue 29: what `platform run <workflow> --wait` adds over the run's own latency, for a one-step
// workflow, one run at a time (p50 of 100 runs each). Four ways of running the same workflow:
//   api   the least any client can see: POST /v1/automations/run, then GET the execution again
//         at once until it is final (no pause between polls), from this process;
//   sdk   `client.runs.run()` of @platform-sdk/client in this process (its polling back-off);
//   cli   `platform run <id> --wait` as a pipeline runs it: a new Node.js process each time;
//   node  `node -e 0`: what starting any Node.js process costs on this machine.
// The run's own latency as the engine records it (finished_at − created_at) is printed too. The
// target compares cli with api, the run's own latency as a client can see it at best.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { createClient } from '@platform-sdk/client';
import { createTenant } from '@platform/testing';
import { percentile, progress } from '../harness.js';

export const name = 'cli';
export const services = ['account', 'run'];
const adminToken = randomBytes(32).toString('base64url');
export const env = { PLATFORM_ADMIN_TOKEN: adminToken, MASTER_KEY: randomBytes(32).toString('base64'), RATE_LIMIT_ENABLED: 'false' };

const CLI = resolve(import.meta.dirname, '../../clients/cli/dist/bundle/platform.js');
const RUNS = 100;
const FINAL = new Set(['succeeded', 'failed', 'cancelled', 'timed_out']);

/** Issue 29's target: `platform run --wait` adds less than 50 ms (p50) over the run's own latency. */
const TARGET_MS = 50;

export function verdict(runP50, cliP50, nodeP50) {
  const added = cliP50 - runP50;
  return (
    `target: run ${runP50.toFixed(1)} ms, platform run --wait ${cliP50.toFixed(1)} ms, added ${added.toFixed(1)} ms ` +
    `(node -e 0: ${nodeP50.toFixed(1)} ms) → ${added < TARGET_MS ? 'MET' : 'NOT MET'} (< ${TARGET_MS} ms)`
  );
}

function timeProcess(args, childEnv) {
  return new Promise((done, fail) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err += c));
    child.on('exit', (code) => (code === 0 ? done({ ms: performance.now() - started, out }) : fail(new Error(`${args.join(' ')} exited ${code}: ${err}`))));
  });
}

async function apiRun(gatewayUrl, headers, workflowId) {
  const started = performance.now();
  const res = await fetch(`${gatewayUrl}/v1/automations/run`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ automation_id: workflowId, input: { x: 21 } }),
  });
  const { run_id } = await res.json();
  for (;;) {
    const execution = await (await fetch(`${gatewayUrl}/run/executions/${run_id}`, { headers })).json();
    if (FINAL.has(execution.status)) return { ms: performance.now() - started, execution };
  }
}

async function series(label, once) {
  progress(`${label}: ${RUNS} runs, one at a time`);
  const ms = [];
  for (let i = 0; i < RUNS; i += 1) ms.push(await once());
  return ms.sort((a, b) => a - b);
}

export async function run({ platform }) {
  const gatewayUrl = platform.gatewayUrl;
  const tenant = await createTenant(gatewayUrl, adminToken, 'bench');
  const headers = { 'x-api-key': tenant.test_key };
  const client = createClient({ baseUrl: gatewayUrl, apiKey: tenant.test_key });
  const workflow = await client.workflows.create({ name: 'bench-cli', steps: [{ id: 'double', type: 'transform', input: { value: '{% input.x * 2 %}' } }] });
  const childEnv = { PATH: process.env.PATH, HOME: process.env.HOME, PLATFORM_URL: gatewayUrl, PLATFORM_API_KEY: tenant.test_key };

  progress('warming up');
  for (let i = 0; i < 20; i += 1) {
    await apiRun(gatewayUrl, headers, workflow.id);
    await client.runs.run(workflow.id, { x: 21 });
  }
  await timeProcess([CLI, 'run', workflow.id, '--input', '{"x":21}', '--wait'], childEnv);

  const engine = [];
  const api = await series('api', async () => {
    const { ms, execution } = await apiRun(gatewayUrl, headers, workflow.id);
    engine.push(Date.parse(execution.finished_at) - Date.parse(execution.created_at));
    return ms;
  });
  engine.sort((a, b) => a - b);
  const sdk = await series('sdk', async () => {
    const started = performance.now();
    const execution = await client.runs.run(workflow.id, { x: 21 });
    if (execution.status !== 'succeeded') throw new Error(`run ${execution.id} ${execution.status}`);
    return performance.now() - started;
  });
  const node = await series('node', async () => (await timeProcess(['-e', '0'], childEnv)).ms);
  const cli = await series('cli', async () => {
    const { ms, out } = await timeProcess([CLI, 'run', workflow.id, '--input', '{"x":21}', '--wait'], childEnv);
    if (JSON.parse(out).value !== 42) throw new Error(`unexpected output ${out}`);
    return ms;
  });

  const p50 = (sorted) => percentile(sorted, 50);
  const line = (label, sorted, extra = '') =>
    `${label.padEnd(52)} p50 ${p50(sorted).toFixed(1).padStart(7)} ms   p90 ${percentile(sorted, 90).toFixed(1).padStart(7)} ms${extra}`;
  const over = (sorted, base) => `   (+${(p50(sorted) - p50(base)).toFixed(1)} ms over api)`;
  return [
    line('run as the engine records it (finished − created)', engine),
    line('api: POST, then GET at once until final', api),
    line('sdk: client.runs.run() in process', sdk, over(sdk, api)),
    line('cli: platform run <id> --wait, a new process each', cli, over(cli, api)),
    line('node -e 0: starting a Node.js process', node),
    `cli without the process start (cli − node − api, p50s)            ${(p50(cli) - p50(node) - p50(api)).toFixed(1)} ms`,
    verdict(p50(api), p50(cli), p50(node)),
  ];
}
