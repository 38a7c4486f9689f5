#!/usr/bin/env node
// The load generator, run as its own process so it does not share an event loop with what it
// measures. Prints one JSON line: requests per second and latency percentiles in milliseconds.
import autocannon from 'autocannon';
import { printLoadResult } from './load-report.js';

const [url, duration = '10', connections = '50', headersJson = '{}', method = 'GET', body = ''] = process.argv.slice(2);
const result = await autocannon({
  url,
  duration: Number(duration),
  connections: Number(connections),
  headers: JSON.parse(headersJson),
  method,
  body: body || undefined,
});
printLoadResult(result);
