// Issue 14: one-step runs of a `connector` step (the engine asks the connection service, which
// opens the connection, checks the input against the operation's schema, applies the SSRF rules
// and calls the API) beside the same one-step run with `http.request`, both against one local
// stand-in API, at 50 concurrent clients through the gateway until `succeeded`. Target: the
// connector step within 20 % of http.request (runs/s and p99).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { resolve } from 'node:path';
import { call, createTenant } from '@platform/testing';
import { progress, row } from '../harness.js';

export const name = 'connectors';
export const services = ['account', 'catalog', 'connection', 'run'];
const adminToken = randomBytes(32).toString('base64url');
export const env = {
  PLATFORM_ADMIN_TOKEN: adminToken,
  MASTER_KEY: randomBytes(32).toString('base64'),
  RATE_LIMIT_ENABLED: 'false',
  // The stand-in API listens on loopback.
  HTTP_ALLOW_PRIVATE_NETWORKS: 'true',
  CONNECTION_ALLOW_PRIVATE_NETWORKS: 'true',
};

function engineLoad(args) {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [resolve(import.meta.dirname, '../engine-load.js'), ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.on('exit', (code) => (code === 0 ? done(JSON.parse(out.trim().split('\n').pop())) : fail(new Error(`engine load exited ${code}`))));
  });
}

export async function run({ platform, duration, connections }) {
  const seconds = Math.max(20, duration);
  const token = `bench-${randomBytes(8).toString('hex')}`;
  let refused = 0;
  const api = createServer((req, res) => {
    req.resume();
    if (req.headers.authorization !== `Bearer ${token}`) refused++;
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true,"items":[1,2,3]}');
  });
  await new Promise((r) => api.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${api.address().port}`;
  try {
    const tenant = await createTenant(platform.gatewayUrl, adminToken, 'bench');
    const headers = { 'x-api-key': tenant.test_key };
    const connection = (
      await call(platform.gatewayUrl, '/connections', {
        headers,
        body: { name: 'bench api', connector_id: 'http', settings: { base_url: base }, auth: { type: 'bearer', token } },
      })
    ).body;
    const create = async (step) =>
      (await call(platform.gatewayUrl, '/api/v1/workflow/workflows', { headers, body: { name: `bench-${step.type}`, steps: [step] } })).body.id;
    const viaConnector = await create({
      id: 'call',
      type: 'connector',
      input: { connection_id: connection.id, operation: 'request', params: { path: '/items' } },
    });
    const viaHttp = await create({ id: 'call', type: 'http.request', input: { url: `${base}/items`, headers: { authorization: `Bearer ${token}` } } });

    const namespace = platform.serviceEnv.run.NATS_NAMESPACE;
    const args = (wf, s) => [platform.gatewayUrl, tenant.test_key, wf, String(s), String(connections), namespace];
    progress('warming up');
    await engineLoad(args(viaHttp, 3));
    await engineLoad(args(viaConnector, 3));
    progress(`http.request, ${seconds} s at ${connections} clients`);
    const http = await engineLoad(args(viaHttp, seconds));
    progress(`connector, ${seconds} s at ${connections} clients`);
    const connector = await engineLoad(args(viaConnector, seconds));
    const pct = (a, b) => `${Math.round((a / b) * 100)} %`;
    return [
      row(`1-step http.request run → succeeded, ${connections} clients`, http),
      row(`1-step connector run → succeeded, ${connections} clients`, connector),
      `connector vs http.request: ${pct(connector.rps, http.rps)} of the runs/s, p99 ${pct(connector.p99, http.p99)} (target: within 20 %); failed ${connector.failed + http.failed}, errors ${connector.errors + http.errors}, refused by the API ${refused}`,
    ];
  } finally {
    api.close();
  }
}
