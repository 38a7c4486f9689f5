import { beforeAll, describe, expect, it } from '@jest/globals';
import { labelProblems } from '@platform/common';
import { createTenant, type TestTenant } from '@platform/testing';
import { env, runToEnd } from './engine-helpers.js';

/** Sum of the samples of `name` whose labels include `labels`, in Prometheus's text format. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const wanted = Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`));
    if (wanted) sum += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return sum;
}

/** Every label name and value of a scrape. */
function labelsOf(text: string): [string, string][] {
  const labels: [string, string][] = [];
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    for (const m of line.matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels.push([m[1], m[2]]);
  }
  return labels;
}

async function scrape(url: string): Promise<string> {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  return res.text();
}

/** The sum of a series over every process (NATS handlers and queue workers are spread over them). */
async function everywhere(name: string, labels: Record<string, string> = {}): Promise<number> {
  let sum = 0;
  for (const url of Object.values(env.metricsUrls)) sum += sample(await scrape(url), name, labels);
  return sum;
}

/**
 * Metrics on their own port: one workflow run through the gateway moves the run service's request
 * and runs-finished counters and the gateway's request counter; the public ports refuse /metrics;
 * no label of any scrape carries an id.
 */
describe('metrics', () => {
  let tenant: TestTenant;

  beforeAll(async () => {
    tenant = await createTenant(env.gatewayUrl, env.adminToken, 'metrics');
  });

  it('count a run in the run service and the gateway, on the metrics ports', async () => {
    const runBefore = await scrape(env.metricsUrls.run);
    const gatewayBefore = await scrape(env.metricsUrls.gateway);
    const handledBefore = await everywhere('nats_handled_duration_seconds_count');
    const itemsBefore = await everywhere('jetstream_work_item_duration_seconds_count', { outcome: 'ack' });

    const execution = await runToEnd(tenant, [{ id: 'double', type: 'transform', input: { value: '{% input.x * 2 %}' } }], { x: 21 });
    expect(execution.status).toBe('succeeded');

    const started = { route: '/v1/automations/run', method: 'POST', status: '202' };
    const finished = { status: 'succeeded' };
    const routed = { upstream: 'run', method: 'POST', status: '202' };
    // The run's own answer is sent before its request is observed: poll the scrape briefly.
    const deadline = Date.now() + 10_000;
    let runAfter = await scrape(env.metricsUrls.run);
    let gatewayAfter = await scrape(env.metricsUrls.gateway);
    while (
      Date.now() < deadline &&
      sample(gatewayAfter, 'gateway_request_duration_seconds_count', routed) <= sample(gatewayBefore, 'gateway_request_duration_seconds_count', routed)
    ) {
      await new Promise((r) => setTimeout(r, 100));
      runAfter = await scrape(env.metricsUrls.run);
      gatewayAfter = await scrape(env.metricsUrls.gateway);
    }
    expect(sample(runAfter, 'http_request_duration_seconds_count', started)).toBeGreaterThan(sample(runBefore, 'http_request_duration_seconds_count', started));
    expect(sample(runAfter, 'run_execution_duration_seconds_count', finished)).toBeGreaterThan(
      sample(runBefore, 'run_execution_duration_seconds_count', finished),
    );
    expect(sample(runAfter, 'run_step_duration_seconds_count', { type: 'transform', status: 'succeeded' })).toBeGreaterThan(0);
    expect(sample(gatewayAfter, 'gateway_request_duration_seconds_count', routed)).toBeGreaterThan(
      sample(gatewayBefore, 'gateway_request_duration_seconds_count', routed),
    );
    // The series of the other layers are there too: event-loop lag, the database pool, NATS.
    expect(runAfter).toContain('nodejs_eventloop_lag_p99_seconds');
    expect(sample(runAfter, 'db_pool_max', { pool: 'app' })).toBeGreaterThan(0);
    expect(runAfter).toContain('jetstream_consumer_pending{');
    // NATS handlers of the processes it went through (key verification, usage, events) were timed.
    expect(await everywhere('nats_handled_duration_seconds_count')).toBeGreaterThan(handledBefore);
    // The run ran inline; the work items it caused (its usage facts, the key's use) were taken off
    // their queues by other processes' workers, and timed there, within a relay interval or so.
    let items = await everywhere('jetstream_work_item_duration_seconds_count', { outcome: 'ack' });
    while (Date.now() < deadline + 10_000 && items <= itemsBefore) {
      await new Promise((r) => setTimeout(r, 200));
      items = await everywhere('jetstream_work_item_duration_seconds_count', { outcome: 'ack' });
    }
    expect(items).toBeGreaterThan(itemsBefore);
  });

  it('labels handled NATS messages by their subscription pattern, without the namespace', async () => {
    const subjects = new Set<string>();
    for (const url of Object.values(env.metricsUrls)) {
      for (const line of (await scrape(url)).split('\n')) {
        if (!line.startsWith('nats_handled_duration_seconds_count{')) continue;
        subjects.add(/subject="([^"]*)"/.exec(line)![1]);
      }
    }
    expect(subjects.size).toBeGreaterThan(0);
    const namespace = env.serviceEnv.run.NATS_NAMESPACE;
    for (const subject of subjects) {
      // A contract's subject (`account.keys.verify`, `trigger.events.>`): lower-case words, dots, wildcards.
      expect(subject).toMatch(/^[a-z][a-z0-9_-]*(\.([a-z0-9_-]+|\*|>))+$/);
      if (namespace) expect(subject.startsWith(`${namespace}.`)).toBe(false);
    }
  });

  it("shows the notification delivery thread's event-loop lag in the notification service's scrape", async () => {
    const text = await scrape(env.metricsUrls.notification);
    // the thread's own loop, sent to the service at each scrape; the main thread's is prom-client's
    expect(text).toMatch(/^nodejs_thread_eventloop_lag_seconds\{[^}]*thread="delivery"[^}]*\} \d/m);
    expect(text).toContain('nodejs_eventloop_lag_p99_seconds');
  });

  it('refuses /metrics on the public ports: the gateway and a service', async () => {
    for (const base of [env.gatewayUrl, env.serviceUrls.run]) {
      const res = await fetch(`${base}/metrics`);
      expect(res.status).toBe(404);
      expect(await res.text()).not.toContain('# TYPE');
    }
  });

  it('keeps ids, tenants and free text out of every label of every process', async () => {
    const problems: string[] = [];
    for (const [name, url] of Object.entries(env.metricsUrls)) {
      for (const [label, value] of labelsOf(await scrape(url))) for (const p of labelProblems(label, value)) problems.push(`${name}: ${p}`);
    }
    expect([...new Set(problems)]).toEqual([]);
  });
});
