#!/usr/bin/env node
// Load generator for the webhooks suite, in its own process: every request is a fresh Standard
// Webhooks delivery (its own webhook-id, current timestamp, HMAC-SHA256 signature), so none is a
// duplicate. Prints one JSON line like bench/load.js.
import { createHmac, randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import { printLoadResult } from '../load-report.js';

const [url, secret, duration = '10', connections = '50'] = process.argv.slice(2);
const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
let n = 0;
const result = await autocannon({
  url,
  duration: Number(duration),
  connections: Number(connections),
  method: 'POST',
  requests: [
    {
      setupRequest: (req) => {
        const id = `msg_${randomUUID()}`;
        const ts = Math.floor(Date.now() / 1000);
        const body = JSON.stringify({ event: 'order.paid', n: n++, amount: 4200 });
        const signature = createHmac('sha256', key).update(`${id}.${ts}.${body}`).digest('base64');
        return {
          ...req,
          method: 'POST',
          body,
          headers: { 'content-type': 'application/json', 'webhook-id': id, 'webhook-timestamp': String(ts), 'webhook-signature': `v1,${signature}` },
        };
      },
    },
  ],
});
printLoadResult(result);
