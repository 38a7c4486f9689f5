// Shared by every benchmark suite: a database and platform of its own, and a load run in a
// separate process. Nothing here is timed by tests; numbers are printed, never asserted.
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';

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

export function progress(message) {
  process.stdout.write(`  … ${message}\n`);
}
