// Human tasks: approvals completed per second through the gateway, each one's execution resumed
// to `succeeded` (the completion committed, its outcome through the JetStream queue, the run
// service recording it and running the rest of the workflow), and the time from sending
// `complete` to the execution's `finished_at`.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { call, createTenant } from '@platform/testing';
import { listAll, percentile, progress, row, runScript } from '../harness.js';

export const name = 'tasks';
export const services = ['account', 'run', 'task'];
const adminToken = randomBytes(32).toString('base64url');
// One test key completes thousands of tasks a second: far above its 1 200/min rate limit.
export const env = { PLATFORM_ADMIN_TOKEN: adminToken, MASTER_KEY: randomBytes(32).toString('base64'), RATE_LIMIT_ENABLED: 'false' };

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const taskLoad = (args) => runScript('suites/task-load.js', args);

/**
 * Starts `count` executions that each wait on an approval, and returns their tasks' ids once all
 * exist and every execution has recorded its wait: the run service asks for the task before it
 * commits the wait, so a completion in between would measure the early outcome's redelivery.
 */
async function waitingTasks(gatewayUrl, headers, workflow, count) {
  let started = 0;
  const starter = async () => {
    while (started < count) {
      started++;
      const res = await call(gatewayUrl, '/v1/automations/run', { headers, body: { automation_id: workflow, input: {} } });
      if (res.status !== 202) throw new Error(`start failed: ${res.status} ${res.text}`);
    }
  };
  await Promise.all(Array.from({ length: 32 }, starter));
  for (let tries = 0; tries < 240; tries++) {
    const tasks = await listAll(gatewayUrl, headers, `/tasks?workflow_id=${workflow}`);
    const waiting = tasks.length >= count ? await listAll(gatewayUrl, headers, `/run/executions?workflow_id=${workflow}&status=waiting`) : [];
    if (waiting.length >= count) return tasks.map((t) => ({ id: t.id, execution: t.execution_id }));
    progress(`${tasks.length}/${count} tasks made, ${waiting.length} executions waiting`);
    await sleep(1000);
  }
  throw new Error('the tasks were not all made');
}

export async function run({ platform, duration, connections }) {
  const gatewayUrl = platform.gatewayUrl;
  const tenant = await createTenant(gatewayUrl, adminToken, 'bench-tasks');
  const headers = { 'x-api-key': tenant.test_key };
  const workflow = (
    await call(gatewayUrl, '/api/v1/workflow/workflows', {
      headers,
      body: {
        name: 'bench-approval',
        steps: [
          { id: 'approve', type: 'approval', input: { title: 'Ship it?' } },
          { id: 'after', type: 'transform', input: { decision: '{% steps.approve.output.decision %}' } },
        ],
      },
    })
  ).body.id;
  const dir = mkdtempSync(join(tmpdir(), 'bench-tasks-'));

  progress('warming up: 300 approvals');
  const warm = await waitingTasks(gatewayUrl, headers, workflow, 300);
  writeFileSync(join(dir, 'warm.json'), JSON.stringify(warm.map((t) => t.id)));
  await taskLoad([gatewayUrl, tenant.test_key, join(dir, 'warm.json'), join(dir, 'warm-sent.json'), '5', String(connections)]);
  await sleep(2000);

  const measure = async (label, count, conns, seconds, rate = 0) => {
    progress(`${label}: starting ${count} executions that wait on an approval`);
    const tasks = await waitingTasks(gatewayUrl, headers, workflow, count);
    const executionOf = new Map(tasks.map((t) => [t.id, t.execution]));
    writeFileSync(join(dir, `${label}.json`), JSON.stringify(tasks.map((t) => t.id)));
    progress(`${label}: completing them, up to ${seconds} s at ${conns} connections`);
    const load = await taskLoad([
      gatewayUrl,
      tenant.test_key,
      join(dir, `${label}.json`),
      join(dir, `${label}-sent.json`),
      String(seconds),
      String(conns),
      String(rate),
    ]);
    const sent = JSON.parse(readFileSync(join(dir, `${label}-sent.json`), 'utf8'));
    // Every completed task's execution must reach succeeded; the figures count only those.
    const wanted = new Set(Object.keys(sent).map((id) => executionOf.get(id)));
    let finished = [];
    for (let tries = 0; tries < 60; tries++) {
      finished = (await listAll(gatewayUrl, headers, `/run/executions?workflow_id=${workflow}&status=succeeded`)).filter((e) => wanted.has(e.id));
      if (finished.length >= wanted.size) break;
      await sleep(500);
    }
    const finishedAt = new Map(finished.map((e) => [e.id, Date.parse(e.finished_at)]));
    const delays = [];
    for (const [task, at] of Object.entries(sent)) {
      const end = finishedAt.get(executionOf.get(task));
      if (end !== undefined) delays.push(end - at);
    }
    delays.sort((a, b) => a - b);
    const first = Math.min(...Object.values(sent));
    const last = Math.max(...finishedAt.values());
    return { load, sent: Object.keys(sent).length, finished: finished.length, rate: finished.length / ((last - first) / 1000), delays };
  };
  const saturated = await measure('saturated', Math.max(1000, duration * 450), connections, duration);
  await sleep(2000);
  // The target's reading: 300 completions a second, evenly spaced, and how long each one's execution takes to succeed.
  const target = await measure('at-300', 300 * duration, connections, duration, 300);
  await sleep(2000);
  // The same path below saturation: what one approval waits when nothing queues.
  const light = await measure('light', 300, 1, Math.min(duration, 5));
  const figures = (r) => `p50 ${percentile(r.delays, 50)} ms, p90 ${percentile(r.delays, 90)} ms, p99 ${percentile(r.delays, 99)} ms`;
  return [
    row(`complete (approve), ${connections} conns`, saturated.load),
    `approvals: ${saturated.sent} completed, ${saturated.finished} executions succeeded; ${Math.round(saturated.rate)} approvals/s resumed to succeeded (first complete sent → last execution finished; target ≥ 300/s)`,
    `complete sent → execution succeeded at ${connections} connections: ${figures(saturated)} (target p99 < 200 ms)`,
    row('complete (approve), paced 300/s', target.load),
    `complete sent → execution succeeded at a paced 300/s: ${target.finished} executions, ${Math.round(target.rate)}/s resumed; ${figures(target)} (target p99 < 200 ms)`,
    row('complete (approve), 1 conn', light.load),
    `complete sent → execution succeeded at 1 connection (${Math.round(light.rate)}/s): ${figures(light)}`,
  ];
}
