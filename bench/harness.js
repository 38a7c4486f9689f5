// Shared by every benchmark suite: a database and platform of its own, and a load run in a
// separate process. Nothing here is timed by tests; numbers are printed, never asserted.
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { call, createTestDatabase, removeNatsNamespace, startOtlpReceiver, startPlatform } from '@platform/testing';

const LOAD = resolve(import.meta.dirname, 'load.js');
const LATENCY = resolve(import.meta.dirname, 'latency.js');

/** Saturating load (autocannon): throughput, and latency under that load. */
export function load(url, { duration = 10, connections = 50, headers = {}, method = 'GET', body = '' } = {}) {
  return runGenerator([LOAD, url, String(duration), String(connections), JSON.stringify(headers), method, body]);
}

/** Unloaded latency, microsecond resolution: what one request costs when nothing queues. */
export function latency(url, { duration = 10, connections = 1, headers = {} } = {}) {
  return runGenerator([LATENCY, url, String(duration), String(connections), JSON.stringify(headers)]);
}

/** Runs a load script of bench/ in its own process; resolves with the JSON line it prints last. */
export function runScript(script, args) {
  return runGenerator([resolve(import.meta.dirname, script), ...args]);
}

function runGenerator(args) {
  return new Promise((resolveRun, reject) => {
    const child = spawn(process.execPath, args, {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`load generator exited with ${code}`));
      resolveRun(JSON.parse(out.trim().split('\n').pop()));
    });
  });
}

export function row(label, r) {
  const codes = Object.entries(r.codes)
    .map(([k, v]) => `${k}:${v}`)
    .join(' ');
  return `${label.padEnd(46)} ${String(Math.round(r.rps)).padStart(7)} req/s   p50 ${r.p50.toFixed(2).padStart(7)} ms   p99 ${r.p99.toFixed(2).padStart(7)} ms   ${codes}${r.errors ? `  errors:${r.errors}` : ''}`;
}

/** Every row of a paginated list, following `next_cursor`. */
export async function listAll(gatewayUrl, headers, path) {
  const rows = [];
  let cursor = null;
  do {
    const page = (await call(gatewayUrl, `${path}${path.includes('?') ? '&' : '?'}limit=200${cursor ? `&cursor=${cursor}` : ''}`, { headers })).body;
    rows.push(...(page.data ?? []));
    cursor = page.next_cursor ?? null;
  } while (cursor);
  return rows;
}

export const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

export function progress(message) {
  process.stdout.write(`  … ${message}\n`);
}

/**
 * `--telemetry`: every platform runs with traces exported to an OTLP receiver the benchmark starts
 * (every span kept by the SDK and sent, as to a collector) and metrics at their default (on).
 * Without it, both are off (METRICS_ENABLED=false, no OTEL_EXPORTER_OTLP_ENDPOINT): the two runs
 * side by side are the cost of telemetry.
 */
const telemetry = { on: false, exports: 0, protobuf: 0, bytes: 0 };

export function useTelemetry(on) {
  telemetry.on = on;
}

export function telemetryOn() {
  return telemetry.on;
}

export function telemetryReport() {
  return telemetry.on
    ? `telemetry on: traces to a local OTLP receiver (${telemetry.exports} exports, ${telemetry.protobuf} of them OTLP/protobuf, ${(telemetry.bytes / 1e6).toFixed(1)} MB of spans), metrics on`
    : 'telemetry off: METRICS_ENABLED=false, no OTEL_EXPORTER_OTLP_ENDPOINT';
}

/**
 * A platform of its own for `use`: a fresh database, a NATS namespace `namespace` and the given
 * services, stopped and removed afterwards whatever happens. `telemetry` overrides `--telemetry`
 * for this platform (the telemetry suite runs both at once).
 */
export async function withPlatform({ services, namespace, env = {}, telemetry: on = telemetry.on }, use) {
  const database = await createTestDatabase('bench');
  const receiver = on ? await startOtlpReceiver({ keepSpans: false }) : undefined;
  const telemetryEnv = receiver ? { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url } : { METRICS_ENABLED: 'false' };
  let platform;
  try {
    platform = await startPlatform({
      databaseUrl: database.url,
      services,
      env: { LOG_LEVEL: 'warn', NATS_NAMESPACE: namespace, RATE_LIMIT_KEY_PREFIX: `rl-${namespace}`, ...telemetryEnv, ...env },
    });
    return await use(platform, database);
  } finally {
    await platform?.stop();
    if (receiver) {
      telemetry.exports += receiver.exports.count;
      telemetry.protobuf += receiver.exports.protobuf;
      telemetry.bytes += receiver.exports.bytes;
      await receiver.stop();
    }
    await database.drop();
    await removeNatsNamespace(namespace);
  }
}
