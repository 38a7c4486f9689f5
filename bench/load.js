#!/usr/bin/env node
// The load generator, run as its own process so it does not share an event loop with what it
// measures. Prints one JSON line: requests per second and latency percentiles in milliseconds.
import autocannon from 'autocannon';

const [url, duration = '10', connections = '50', headersJson = '{}', method = 'GET', body = ''] = process.argv.slice(2);
const result = await autocannon({
  url,
  duration: Number(duration),
  connections: Number(connections),
  headers: JSON.parse(headersJson),
  method,
  body: body || undefined,
});
const codes = Object.fromEntries(
  Object.entries(result)
    .filter(([k, v]) => /^\dxx$/.test(k) && v)
    .map(([k, v]) => [k, v]),
);
console.log(
  JSON.stringify({
    rps: result.requests.average,
    p50: result.latency.p50,
    p90: result.latency.p90,
    p99: result.latency.p99,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    codes,
    total: result.requests.total,
  }),
);
