#!/usr/bin/env node
// Load generator for the engine benchmark, in its own process: `connections` clients each start a
// run (POST /v1/automations/run through the gateway) and wait for that run's completion event on
// NATS before starting the next. Latency is from the request to the `run.execution.completed`
// event, i.e. until the run is `succeeded`. Prints one JSON line.
import { Agent, request } from 'node:http';
import { Bus, RunSubjects, configureNamespace, connectNats } from '@platform/messaging';

const [gatewayUrl, key, workflowId, duration = '20', connections = '50', namespace = '', natsUrl = 'nats://127.0.0.1:4222'] = process.argv.slice(2);
configureNamespace(namespace);
const nc = await connectNats({ url: natsUrl, name: 'bench-engine-load' });
const bus = new Bus(nc);
const waiting = new Map();
const early = new Map();
for (const subject of [RunSubjects.executionCompleted, RunSubjects.executionFailed]) {
  bus.subscribeAll(subject, (event) => {
    const id = event.data.executionId;
    const done = waiting.get(id);
    if (done) done(event.data.status);
    else early.set(id, event.data.status); // finished before the 202 reached the client
  });
}
await nc.flush();

const agent = new Agent({ keepAlive: true, maxSockets: Number(connections) });
const body = JSON.stringify({ automation_id: workflowId, input: { x: 21 } });
function start() {
  return new Promise((resolve, reject) => {
    const req = request(
      `${gatewayUrl}/v1/automations/run`,
      { method: 'POST', agent, headers: { 'content-type': 'application/json', 'x-api-key': key, 'content-length': Buffer.byteLength(body) } },
      (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => (res.statusCode === 202 ? resolve(JSON.parse(text).run_id) : reject(new Error(`${res.statusCode} ${text}`))));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const latencies = [];
let failed = 0;
let errors = 0;
const errorSamples = new Set(); // a few distinct causes, so a failing run says why
const deadline = Date.now() + Number(duration) * 1000;
async function client() {
  while (Date.now() < deadline) {
    const t0 = performance.now();
    try {
      const id = await start();
      const status = early.get(id) ?? (await new Promise((resolve) => waiting.set(id, resolve)));
      waiting.delete(id);
      early.delete(id);
      if (status === 'succeeded') latencies.push(performance.now() - t0);
      else failed++;
    } catch (error) {
      errors++;
      if (errorSamples.size < 5) errorSamples.add(String(error.message).slice(0, 300));
    }
  }
}
const began = performance.now();
await Promise.all(Array.from({ length: Number(connections) }, client));
const seconds = (performance.now() - began) / 1000;
latencies.sort((a, b) => a - b);
const at = (q) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] * 100) / 100;
console.log(
  JSON.stringify({
    rps: latencies.length / seconds,
    p50: at(0.5),
    p90: at(0.9),
    p99: at(0.99),
    total: latencies.length,
    failed,
    errors,
    ...(errorSamples.size ? { errorSamples: [...errorSamples] } : {}),
    codes: { succeeded: latencies.length },
  }),
);
agent.destroy();
await nc.close();
