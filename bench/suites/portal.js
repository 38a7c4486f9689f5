// Portal: what a customer's page costs. Through the gateway: a customer key listing what is
// published to it, a dashboard's numbers over 100,000 executions of the tenant (among 300,000 of
// other tenants), and an embedded form page (the embed token verified, its row and customer checked).
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { call, createTenant } from '@platform/testing';
import { latency, load, progress, row } from '../harness.js';

export const name = 'portal';
export const services = ['account', 'run', 'task', 'portal'];
const adminToken = randomBytes(32).toString('base64url');
export const env = { PLATFORM_ADMIN_TOKEN: adminToken, MASTER_KEY: randomBytes(32).toString('base64'), RATE_LIMIT_ENABLED: 'false' };

const OURS = 100_000;
const OTHERS = 300_000;

async function must(gatewayUrl, path, request, status = 201) {
  const res = await call(gatewayUrl, path, request);
  if (res.status !== status) throw new Error(`${path}: ${res.status} ${res.text}`);
  return res.body;
}

/** Executions straight into the run schema: over the last 30 days, a status mix, some of one customer. */
async function seed(db, tenantId, environmentId, workflowId, customerId, count) {
  await db.query(
    `insert into run.executions (tenant_id, environment_id, id, scope_id, workflow_id, workflow_version, status, input, trigger_type, timeout_at, created_at, started_at, finished_at)
     select $1, $2, gen_random_uuid(), case when g % 10 = 0 then $4::uuid end, $3, 1,
            (array['succeeded','succeeded','succeeded','failed','timed_out','cancelled','running'])[1 + g % 7], '{}', 'api', now(),
            now() - make_interval(secs => g * 25), now() - make_interval(secs => g * 25), now() - make_interval(secs => g * 25) + make_interval(secs => g % 13)
       from generate_series(1, $5) g`,
    [tenantId, environmentId, workflowId, customerId, count],
  );
}

export async function run({ platform, database, duration, connections }) {
  const gw = platform.gatewayUrl;
  const tenant = await createTenant(gw, adminToken, 'bench-portal');
  const headers = { 'x-api-key': tenant.test_key };
  const customer = (await must(gw, '/portal/customers', { headers, body: { name: 'Globex' } })).id;
  const customerKey = (
    await must(gw, '/account/api-keys', {
      headers,
      body: { name: 'globex', type: 'customer', customer_id: customer, scopes: ['portal:read'], data_plane_id: tenant.sandbox_data_plane_id },
    })
  ).key;
  const workflow = (
    await must(gw, '/api/v1/workflow/workflows', {
      headers,
      body: {
        name: 'hello',
        input_schema: { type: 'object', properties: { name: { type: 'string' } } },
        steps: [{ id: 'echo', type: 'transform', input: { v: 1 } }],
      },
    })
  ).id;
  for (let i = 0; i < 20; i++)
    await must(gw, '/portal/workflows', { headers, body: { workflow_id: workflow, visibility: 'all_customers', title: `Form ${i}` } });
  const published = (await must(gw, '/portal/workflows', { headers, body: { workflow_id: workflow, visibility: { customer_ids: [customer] }, title: 'Ours' } }))
    .id;
  const dashboard = (
    await must(gw, '/portal/dashboards', {
      headers,
      body: {
        name: 'Ops',
        widgets: [
          { type: 'executions_per_day' },
          { type: 'failure_rate' },
          { type: 'slowest_workflows' },
          { type: 'most_failing_workflows' },
          { type: 'open_tasks' },
        ],
      },
    })
  ).id;
  const embed = await must(gw, '/portal/embed', { headers, body: { kind: 'form', target_id: published, customer_id: customer, allowed_origins: [] } });

  progress(`seeding ${OURS} executions of the tenant and ${OTHERS} of three others`);
  const db = new pg.Client({ connectionString: database.url });
  await db.connect();
  try {
    await seed(db, tenant.tenant_id, tenant.sandbox_data_plane_id, workflow, customer, OURS);
    for (let i = 0; i < 3; i++) {
      const [t, e, w] = [crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID()];
      await db.query(`insert into run.workflows (tenant_id, environment_id, id, name, current_version) values ($1, $2, $3, 'w', 1)`, [t, e, w]);
      await db.query(`insert into run.workflow_versions (tenant_id, environment_id, workflow_id, version, definition) values ($1, $2, $3, 1, '{"steps":[]}')`, [
        t,
        e,
        w,
      ]);
      await seed(db, t, e, w, null, OTHERS / 3);
    }
    await db.query('analyze run.executions');
  } finally {
    await db.end();
  }

  const formPath = embed.url.slice(embed.url.indexOf('/portal/'));
  const targets = [
    ['GET /portal/workflows (customer key, 21 published)', `${gw}/portal/workflows`, { 'x-api-key': customerKey }],
    ['GET /portal/dashboards/{id}/data (100k runs, 30 days)', `${gw}/portal/dashboards/${dashboard}/data`, headers],
    ['GET /portal/dashboards/{id}/data (one customer, 10k)', `${gw}/portal/dashboards/${dashboard}/data?customer_id=${customer}`, headers],
    ['GET /portal/public/forms/{id}?token= (embed page)', `${gw}${formPath}`, {}],
  ];
  const lines = [];
  for (const [label, url, h] of targets) {
    progress(`${label}: unloaded`);
    lines.push(row(`${label} unloaded`, await latency(url, { duration: Math.min(duration, 5), headers: h })));
    progress(`${label}: ${connections} connections`);
    lines.push(row(`${label} loaded`, await load(url, { duration, connections, headers: h })));
  }
  return lines;
}
