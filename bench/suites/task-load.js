#!/usr/bin/env node
// Load generator for the tasks suite, in its own process: each request completes the next waiting
// approval task (`POST /tasks/{id}/complete`, approve). Writes the moment each completion was sent
// to `sentFile` and prints one JSON line like bench/load.js. With a rate, the offered load is
// fixed and evenly spaced (bench/paced-load.js); without, as fast as answered (autocannon).
import { readFileSync, writeFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { printLoadResult } from '../load-report.js';
import { pacedLoad } from '../paced-load.js';

const [gatewayUrl, key, idsFile, sentFile, duration = '10', connections = '50', rate = '0'] = process.argv.slice(2);
const ids = JSON.parse(readFileSync(idsFile, 'utf8'));
const sent = {};
let next = 0;
const completion = () => {
  const id = ids[next++ % ids.length];
  return {
    id,
    path: `/tasks/${id}/complete`,
    body: JSON.stringify({ decision: 'approve', data: { n: next } }),
    headers: { 'content-type': 'application/json', 'x-api-key': key },
  };
};

if (Number(rate) > 0) {
  const result = await pacedLoad({
    baseUrl: gatewayUrl,
    rate: Number(rate),
    seconds: Number(duration),
    connections: Number(connections),
    next: () => (next < ids.length ? completion() : null),
    onSent: (req, at) => (sent[req.id] = at),
  });
  writeFileSync(sentFile, JSON.stringify(sent));
  console.log(JSON.stringify(result));
} else {
  const result = await autocannon({
    url: gatewayUrl,
    duration: Number(duration),
    connections: Number(connections),
    amount: ids.length,
    requests: [
      {
        setupRequest: (req) => {
          const c = completion();
          sent[c.id] = Date.now();
          return { ...req, method: 'POST', path: c.path, body: c.body, headers: c.headers };
        },
      },
    ],
  });
  writeFileSync(sentFile, JSON.stringify(sent));
  printLoadResult(result);
}
