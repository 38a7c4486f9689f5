// Triggers and webhooks: accepted webhook deliveries per second through the gateway (HMAC
// verification on, async mode: each one written durably and deduplicated before its 202, its run
// started behind the answer), how long the burst's runs take to drain,
// and the delay from a schedule's tick to its run's start with two trigger replicas' worth of
// per-second schedules.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { call, createTenant } from '@platform/testing';
import { listAll, percentile, progress, row, runScript } from '../harness.js';

export const name = 'triggers';
export const services = ['account', 'run', 'webhook', 'trigger'];
const adminToken = randomBytes(32).toString('base64url');
// Rate limiting stays on (a delivery pays for its counter in Redis); the burst is one webhook's,
// so its per-webhook limit is raised above what the machine can take.
export const env = { PLATFORM_ADMIN_TOKEN: adminToken, MASTER_KEY: randomBytes(32).toString('base64'), RATE_LIMIT_WEBHOOK_PER_MINUTE: '100000000' };

const webhookLoad = (args) => runScript('suites/webhook-load.js', args);

async function runsCreated(databaseUrl, workflowId) {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    return (await db.query(`select count(*)::int as n from run.executions where workflow_id = $1`, [workflowId])).rows[0].n;
  } finally {
    await db.end();
  }
}

/** Waits until every accepted delivery of the webhook has a succeeded run; the seconds it took. */
async function drain(databaseUrl, webhookId, workflowId) {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  const started = Date.now();
  try {
    for (;;) {
      const { rows } = await db.query(
        `select (select count(*) from webhook.deliveries where webhook_id = $1 and outcome = 'accepted')::int as accepted,
                (select count(*) from run.executions where workflow_id = $2 and status = 'succeeded')::int as succeeded`,
        [webhookId, workflowId],
      );
      if (rows[0].succeeded >= rows[0].accepted) return { seconds: (Date.now() - started) / 1000, runs: rows[0].succeeded };
      if (Date.now() - started > 300_000) throw new Error(`runs not drained: ${JSON.stringify(rows[0])}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  } finally {
    await db.end();
  }
}

export async function run({ platform, database, duration, connections }) {
  const gatewayUrl = platform.gatewayUrl;
  const tenant = await createTenant(gatewayUrl, adminToken, 'bench');
  const headers = { 'x-api-key': tenant.test_key };
  const workflow = (
    await call(gatewayUrl, '/api/v1/workflow/workflows', {
      headers,
      body: { name: 'bench-hook', steps: [{ id: 't', type: 'transform', input: { n: '{% input.body.n %}' } }] },
    })
  ).body.id;
  const hook = (await call(gatewayUrl, '/webhooks', { headers, body: { name: 'bench', workflow_id: workflow, verification: { type: 'hmac' } } })).body;
  const url = `${gatewayUrl}${hook.url}`;

  progress('warming up');
  await webhookLoad([url, hook.secret, '3', String(connections)]);
  await drain(database.url, hook.id, workflow);
  progress(`webhook deliveries, ${duration} s at ${connections} connections`);
  const runsBefore = await runsCreated(database.url, workflow);
  const w = await webhookLoad([url, hook.secret, String(duration), String(connections)]);
  const runsDuring = (await runsCreated(database.url, workflow)) - runsBefore;
  progress('waiting for the runs of the burst');
  const drained = await drain(database.url, hook.id, workflow);
  // The same deliveries with the workflow disabled: verified, written and deduplicated as before,
  // the run service refusing at once; what intake costs without the engine running every run.
  const disabled = await call(gatewayUrl, `/api/v1/workflow/workflows/${workflow}`, { method: 'PATCH', headers, body: { status: 'disabled' } });
  progress(`intake only (workflow disabled: ${disabled.status}), ${duration} s at ${connections} connections`);
  const intake = await webhookLoad([url, hook.secret, String(duration), String(connections)]);

  // Let the run service drain the runs the deliveries started before measuring ticks.
  progress('schedules: 20 per-second triggers for 15 s');
  await new Promise((r) => setTimeout(r, 5000));
  const tickWorkflow = (
    await call(gatewayUrl, '/api/v1/workflow/workflows', {
      headers,
      body: { name: 'bench-tick', steps: [{ id: 't', type: 'transform', input: { ok: true } }] },
    })
  ).body.id;
  const triggers = [];
  for (let i = 0; i < 20; i++) {
    const t = (
      await call(gatewayUrl, '/triggers', {
        headers,
        body: { name: `tick-${i}`, workflow_id: tickWorkflow, type: 'schedule', schedule: { cron: '* * * * * *' } },
      })
    ).body;
    triggers.push(t.id);
  }
  await new Promise((r) => setTimeout(r, 15_000));
  for (const id of triggers) await call(gatewayUrl, `/triggers/${id}/disable`, { method: 'PUT', headers });
  await new Promise((r) => setTimeout(r, 3000));
  const runs = new Map((await listAll(gatewayUrl, headers, `/run/executions?workflow_id=${tickWorkflow}`)).map((r) => [r.id, r]));
  const delays = [];
  let ticks = 0;
  for (const id of triggers) {
    for (const e of await listAll(gatewayUrl, headers, `/triggers/${id}/executions`)) {
      ticks++;
      const r = runs.get(e.run_id);
      if (r?.created_at) delays.push(Date.parse(r.created_at) - Date.parse(e.scheduled_for));
    }
  }
  delays.sort((a, b) => a - b);
  const p50 = percentile(delays, 50) ?? NaN;
  const p99 = percentile(delays, 99) ?? NaN;
  return [
    row(`webhook delivery (HMAC, async), ${connections} conns`, w),
    row(`webhook intake only (run refused), ${connections} conns`, intake),
    `webhooks: ${Math.round(w.rps)} accepted deliveries/s (target ≥ 1,500), p50 ${w.p50} ms, p99 ${w.p99} ms; codes ${JSON.stringify(w.codes)}`,
    `webhooks: ${Math.round(runsDuring / duration)} runs/s started during the burst; all its runs succeeded ${drained.seconds.toFixed(1)} s after it ended (${Math.round(w.total / (duration + drained.seconds))} runs/s over burst and drain)`,
    `schedules: ${ticks} ticks of 20 per-second triggers, ${delays.length} runs; tick → run created p50 ${p50} ms, p99 ${p99} ms (target < 500 ms)`,
  ];
}
