#!/usr/bin/env node
// Load generator for the tasks suite, in its own process: each request completes the next waiting
// approval task (`POST /tasks/{id}/complete`, approve). Writes the moment each completion was sent
// to `sentFile` and prints one JSON line like bench/load.js. An optional rate fixes the offered load.
import { readFileSync, writeFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { printLoadResult } from '../load-report.js';

const [gatewayUrl, key, idsFile, sentFile, duration = '10', connections = '50', rate = '0'] = process.argv.slice(2);
const ids = JSON.parse(readFileSync(idsFile, 'utf8'));
const sent = {};
let next = 0;
const result = await autocannon({
  url: gatewayUrl,
  duration: Number(duration),
  connections: Number(connections),
  amount: ids.length,
  // A fixed offered load (requests per second over all connections) when given; else as fast as answered.
  ...(Number(rate) > 0 ? { overallRate: Number(rate) } : {}),
  requests: [
    {
      setupRequest: (req) => {
        const id = ids[next++ % ids.length];
        sent[id] = Date.now();
        return {
          ...req,
          method: 'POST',
          path: `/tasks/${id}/complete`,
          body: JSON.stringify({ decision: 'approve', data: { n: next } }),
          headers: { 'content-type': 'application/json', 'x-api-key': key },
        };
      },
    },
  ],
});
writeFileSync(sentFile, JSON.stringify(sent));
printLoadResult(result);
