// Storage: POST /v1/data/query with a filtered aggregate over 100,000 rows of one tenant, among
// ten tenants with data tables of their own, through the gateway with that tenant's API key.
// Target: p50 under 20 ms unloaded. Rate limiting is off so the figures are the query's.
import { randomBytes } from 'node:crypto';
import { Agent, request } from 'node:http';
import { call, createTenant } from '@platform/testing';
import { latency, load, progress, row } from '../harness.js';

export const name = 'data-query';
export const services = ['account', 'storage'];
const adminToken = randomBytes(32).toString('base64url');
export const env = { PLATFORM_ADMIN_TOKEN: adminToken, MASTER_KEY: randomBytes(32).toString('base64'), RATE_LIMIT_ENABLED: 'false' };

const TENANTS = 10;
const BIG = 100_000;
const SMALL = 10_000;
const CHUNK = 10_000;
const STATUSES = ['paid', 'open', 'refunded', 'failed'];

const TABLE = {
  name: 'orders',
  columns: [
    { name: 'region', type: 'text', nullable: false },
    { name: 'status', type: 'text', nullable: false },
    { name: 'amount', type: 'number', nullable: false },
    { name: 'paid_at', type: 'timestamp' },
    { name: 'meta', type: 'json' },
  ],
  indexes: [['region', 'status']],
};

const QUERY = {
  query: `select status, count(*) as orders, sum(amount) as total, round(avg(amount)::numeric, 2) as mean
            from orders where region = $1 and amount > $2 and paid_at >= $3
           group by status order by total desc`,
  params: ['r3', 50, '2026-03-01T00:00:00Z'],
};

function orderRow(i) {
  return {
    region: `r${i % 20}`,
    status: STATUSES[Math.floor(i / 7) % STATUSES.length],
    amount: (i * 37) % 1000,
    paid_at: new Date(Date.UTC(2026, 0, 1) + (i % 365) * 86_400_000).toISOString(),
    meta: { n: i },
  };
}

async function fill(gatewayUrl, key, rows) {
  for (let start = 0; start < rows; start += CHUNK) {
    const body = { rows: Array.from({ length: Math.min(CHUNK, rows - start) }, (_, j) => orderRow(start + j)) };
    const res = await call(gatewayUrl, '/storage/data-tables/orders/rows', { headers: { 'x-api-key': key }, body, timeoutMs: 120_000 });
    if (res.status !== 201) throw new Error(`bulk insert failed: ${res.status} ${res.text.slice(0, 300)}`);
  }
}

/**
 * Unloaded latency of a POST, microsecond resolution, one request at a time over a kept-alive
 * connection: harness.js's latency() sends GETs only, and the query is a POST with a body.
 */
async function postLatency(url, { duration, headers, body }) {
  const target = new URL(url);
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const payload = Buffer.from(body);
  const samples = [];
  const codes = {};
  const deadline = Date.now() + duration * 1000;
  const once = () =>
    new Promise((resolve, reject) => {
      const started = process.hrtime.bigint();
      const req = request(target, { agent, method: 'POST', headers: { ...headers, 'content-length': payload.length } }, (res) => {
        res.resume();
        res.on('end', () => {
          samples.push(Number(process.hrtime.bigint() - started) / 1e6);
          const k = `${Math.floor(res.statusCode / 100)}xx`;
          codes[k] = (codes[k] ?? 0) + 1;
          resolve();
        });
      });
      req.on('error', reject);
      req.end(payload);
    });
  while (Date.now() < deadline) await once();
  agent.destroy();
  samples.sort((a, b) => a - b);
  const at = (q) => Math.round(samples[Math.min(samples.length - 1, Math.floor(q * samples.length))] * 1000) / 1000;
  return { rps: samples.length / duration, p50: at(0.5), p90: at(0.9), p99: at(0.99), errors: 0, codes, total: samples.length };
}

export async function run({ platform, duration, connections }) {
  const gw = platform.gatewayUrl;
  progress(`${TENANTS} tenants, each with its own orders table`);
  const tenants = [];
  for (let i = 0; i < TENANTS; i++) tenants.push(await createTenant(gw, adminToken, `bench-data-${i}`));
  for (const tenant of tenants) {
    const res = await call(gw, '/storage/data-tables', { headers: { 'x-api-key': tenant.test_key }, body: TABLE });
    if (res.status !== 201) throw new Error(`table creation failed: ${res.status} ${res.text}`);
  }
  const started = Date.now();
  progress(
    `loading ${BIG.toLocaleString('en')} rows for tenant 0 and ${SMALL.toLocaleString('en')} for each of the others (bulk inserts of ${CHUNK.toLocaleString('en')})`,
  );
  await fill(gw, tenants[0].test_key, BIG);
  for (const tenant of tenants.slice(1)) await fill(gw, tenant.test_key, SMALL);
  const loadSeconds = (Date.now() - started) / 1000;
  const insertRate = (BIG + SMALL * (TENANTS - 1)) / loadSeconds;

  const url = `${gw}/v1/data/query`;
  const headers = { 'x-api-key': tenants[0].test_key, 'content-type': 'application/json' };
  const body = JSON.stringify(QUERY);
  const check = await call(gw, '/v1/data/query', { headers, body: QUERY });
  if (check.status !== 200) throw new Error(`query failed: ${check.status} ${check.text}`);
  const scanned = await call(gw, '/v1/data/query', {
    headers,
    body: { query: 'select count(*) as n from orders where region = $1 and amount > $2 and paid_at >= $3', params: QUERY.params },
  });
  const listUrl = `${gw}/storage/data-tables/orders/rows?status=paid&limit=50`;

  progress('warming up');
  await load(url, { duration: 2, connections, headers, method: 'POST', body });
  progress(`latency, 1 client, ${duration} s each`);
  const ql = await postLatency(url, { duration, headers, body });
  const ll = await latency(listUrl, { duration, headers: { 'x-api-key': tenants[0].test_key } });
  progress(`throughput, ${connections} connections, ${duration} s`);
  const qt = await load(url, { duration, connections, headers, method: 'POST', body });

  return [
    `data: ${BIG.toLocaleString('en')} rows for the queried tenant, ${SMALL.toLocaleString('en')} for each of ${TENANTS - 1} others; ` +
      `loaded in ${loadSeconds.toFixed(1)} s (${Math.round(insertRate).toLocaleString('en')} rows/s through the gateway)`,
    `query: filtered aggregate matching ${scanned.body.rows?.[0]?.n ?? '?'} rows, ${check.body.row_count} groups`,
    row('POST /v1/data/query aggregate, 1 client', ql),
    row('GET .../orders/rows?status=paid, 1 client', ll),
    row(`POST /v1/data/query aggregate, ${connections} conns`, qt),
    `query p50 ${ql.p50.toFixed(2)} ms, p99 ${ql.p99.toFixed(2)} ms unloaded (target p50 < 20 ms: ${ql.p50 < 20 ? 'met' : 'NOT met'})`,
  ];
}
