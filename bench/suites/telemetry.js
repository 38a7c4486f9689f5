// Issue 30: what telemetry costs the engine, read so that the machine's drift cannot fake it. The
// same one-step workload runs against four platforms up at once: telemetry off (this suite's own
// platform), off again (the control: its difference from the first is the run's noise), on
// (metrics, every trace exported to a local OTLP receiver) and on with traces sampled at 10 %
// (parentbased_traceidratio). They are loaded in turn, a short slice each, the order
// rotating every round, so each variant sees the same minutes of a machine whose speed wanders by
// tens of percent between runs; two runs of `engine` with and without --telemetry minutes apart
// cannot tell a 5 % cost from that drift. Besides runs/s, each slice reads the CPU the platform's
// processes spent (/proc), per completed run: the load is CPU-bound, so that is the cost itself.
import { readFileSync } from 'node:fs';
import { call, createTenant } from '@platform/testing';
import { progress, runScript, telemetryOn, withPlatform } from '../harness.js';
import { ONE_STEP, env } from './engine.js';

export const name = 'telemetry';
export const services = ['account', 'run'];
export { env };

const SAMPLED = { OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.1' };
const ROUNDS = 8;
const WARM_UP = 10;

export async function run({ platform, duration, connections }) {
  if (telemetryOn()) return ['the telemetry suite compares telemetry off and on itself: run it without --telemetry'];
  const slice = Math.max(5, Math.round(duration / 2));
  const namespace = platform.serviceEnv.run.NATS_NAMESPACE;
  // A second platform with telemetry off is the control: what it differs from the first by is this
  // run's noise, printed beside the figures. The three start in a random order, printed with the
  // figures, so that an effect of the start order cannot hide in them.
  const kinds = [
    { label: 'off again (control)', env, key: 'control', telemetry: false },
    { label: 'on, every trace', env, key: 'on', telemetry: true },
    { label: 'on, 10 % of traces', env: { ...env, ...SAMPLED }, key: 'sampled', telemetry: true },
  ];
  for (let i = kinds.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [kinds[i], kinds[j]] = [kinds[j], kinds[i]];
  }
  progress(`starting the other platforms: ${kinds.map((k) => k.label).join(', then ')}`);
  const started = {};
  const startAll = async (i) => {
    if (i === kinds.length) return measure(platform, started, slice, connections);
    const { key, env: kindEnv, telemetry } = kinds[i];
    return withPlatform({ services, namespace: `${namespace}-${key}`, env: kindEnv, telemetry }, (other) => {
      started[key] = other;
      return startAll(i + 1);
    });
  };
  const lines = await startAll(0);
  return [...lines, `  (started in this order: off, ${kinds.map((k) => k.label).join(', ')})`];
}

async function measure(platform, started, slice, connections) {
  const variants = [
    { label: 'off', ...(await prepare(platform)) },
    { label: 'off again (control)', ...(await prepare(started.control)) },
    { label: 'on, every trace', ...(await prepare(started.on)) },
    { label: 'on, 10 % of traces', ...(await prepare(started.sampled)) },
  ];
  // Each platform's code is compiled as it warms: a few seconds of load left it measurably slower
  // in the first rounds, and by more where telemetry adds code to compile.
  progress(`warming up: ${WARM_UP} s of each`);
  for (const v of variants) await v.load(WARM_UP, connections);
  for (let round = 0; round < ROUNDS; round++) {
    progress(`round ${round + 1} of ${ROUNDS}: ${slice} s of each, one-step runs at ${connections} clients`);
    for (let i = 0; i < variants.length; i++) {
      const v = variants[(round + i) % variants.length];
      const before = v.cpu();
      const r = await v.load(slice, connections);
      v.readings.push({ rps: r.rps, p99: r.p99, cpuPerRun: before === undefined ? undefined : (v.cpu() - before) / r.total });
    }
  }
  return report(variants, slice, connections);
}

/** A tenant, a one-step workflow and a load function for one platform; `cpu()` is its processes' CPU in ms so far. */
async function prepare(platform) {
  const tenant = await createTenant(platform.gatewayUrl, env.PLATFORM_ADMIN_TOKEN, 'bench');
  const created = await call(platform.gatewayUrl, '/api/v1/workflow/workflows', {
    headers: { 'x-api-key': tenant.test_key },
    body: { name: 'bench-telemetry', steps: ONE_STEP },
  });
  const namespace = platform.serviceEnv.run.NATS_NAMESPACE;
  const pids = [...platform.processes.values()].map((p) => p.child.pid);
  return {
    readings: [],
    cpu: () => cpuMs(pids),
    load: (seconds, connections) =>
      runScript('engine-load.js', [platform.gatewayUrl, tenant.test_key, created.body.id, String(seconds), String(connections), namespace]),
  };
}

/** User and system CPU of the processes, in ms (Linux /proc; undefined elsewhere). */
function cpuMs(pids) {
  try {
    return pids.reduce((sum, pid) => {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      return sum + (Number(fields[11]) + Number(fields[12])) * 10; // clock ticks of 10 ms
    }, 0);
  } catch {
    return undefined;
  }
}

const mean = (xs) => xs.reduce((a, x) => a + x, 0) / xs.length;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const pct = (ratio) => `${ratio >= 1 ? '+' : '−'}${Math.abs((ratio - 1) * 100).toFixed(1)} %`;

function report(variants, slice, connections) {
  const [off] = variants;
  const lines = [
    `one-step runs, ${connections} clients, ${ROUNDS} rounds of ${slice} s per variant, interleaved`,
    `(the control is telemetry off too: its figures are this run's noise, not a cost):`,
  ];
  for (const v of variants) {
    const rps = v.readings.map((r) => r.rps);
    const cpu = v.readings.map((r) => r.cpuPerRun).filter((c) => c !== undefined);
    let line = `  ${v.label.padEnd(20)} ${mean(rps).toFixed(0).padStart(5)} runs/s   p99 ${median(v.readings.map((r) => r.p99))
      .toFixed(1)
      .padStart(6)} ms`;
    if (cpu.length) line += `   CPU ${mean(cpu).toFixed(3)} ms per run`;
    if (v !== off) {
      // Ratios of readings taken back to back in the same round, then their median: one slow minute moves one pair, not the figure.
      const rpsRatio = median(v.readings.map((r, i) => r.rps / off.readings[i].rps));
      line += `   → throughput ${pct(rpsRatio)}`;
      if (cpu.length === v.readings.length) line += `, CPU per run ${pct(median(v.readings.map((r, i) => r.cpuPerRun / off.readings[i].cpuPerRun)))}`;
      line += ' (median of the rounds)';
    }
    lines.push(line);
  }
  return lines;
}
