// An open-loop load at a fixed rate: request i is sent at start + i / rate, evenly spaced, whether
// or not earlier answers have come back (at most `connections` keep-alive sockets; a request that
// finds them all busy waits for one, and that wait counts in its latency). autocannon's
// `overallRate` is not this: it lets each connection send its share of a second back to back at
// the start of the second, then pause, so "300/s" arrives as a burst each second.
import { Agent, request } from 'node:http';
import { percentile } from './harness.js';

/**
 * Sends `next()`'s requests (`{ path, body, headers }`, or null when there are no more) to
 * `baseUrl` with POST at `rate` per second for `seconds`; `onSent` is told each request's send
 * time. Answers in the shape of printLoadResult's JSON line.
 */
export async function pacedLoad({ baseUrl, rate, seconds, connections, next, onSent = () => {} }) {
  const url = new URL(baseUrl);
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const latencies = [];
  const codes = {};
  let errors = 0;
  const inFlight = new Set();
  const send = (req) =>
    new Promise((resolve) => {
      const began = performance.now();
      const body = Buffer.from(req.body ?? '');
      const r = request(
        { agent, host: url.hostname, port: url.port, method: 'POST', path: req.path, headers: { ...req.headers, 'content-length': body.length } },
        (res) => {
          res.resume();
          res.on('end', () => {
            latencies.push(performance.now() - began);
            const kind = `${Math.floor(res.statusCode / 100)}xx`;
            codes[kind] = (codes[kind] ?? 0) + 1;
            resolve();
          });
        },
      );
      r.on('error', () => {
        errors++;
        resolve();
      });
      r.end(body);
    });

  const start = performance.now();
  const end = start + seconds * 1000;
  for (let i = 0; ; i++) {
    const due = start + (i * 1000) / rate;
    if (due >= end) break;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const req = next();
    if (!req) break;
    onSent(req, Date.now());
    const p = send(req).finally(() => inFlight.delete(p));
    inFlight.add(p);
  }
  await Promise.all(inFlight);
  const elapsed = (performance.now() - start) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const total = latencies.length;
  return {
    rps: total / elapsed,
    p50: percentile(latencies, 50),
    p90: percentile(latencies, 90),
    p99: percentile(latencies, 99),
    errors,
    timeouts: 0,
    non2xx: total - (codes['2xx'] ?? 0),
    codes,
    total,
  };
}
