import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { isFinished } from '@platform/messaging';
import {
  call,
  createTenant,
  e2eEnvironment,
  eventually,
  removeNatsNamespace,
  startOtlpReceiver,
  startPlatform,
  withKey,
  type OtlpReceiver,
  type ReceivedSpan,
  type RunningPlatform,
  type TestTenant,
} from '@platform/testing';

const env = e2eEnvironment();
type Json = Record<string, unknown>;

const SERVER = 2;
const CONSUMER = 5;

/**
 * One trace from the gateway to the notification a workflow step sent. The suite's platform runs
 * without tracing, so this starts the few processes the path needs (gateway, account,
 * subscription, run, notification) in a NATS namespace of their own, on the suite's database,
 * exporting to an OTLP receiver started here, which also stands in for the Teams webhook. Runs
 * go through the JetStream queue (RUN_INLINE_CONCURRENCY=0), so the worker that runs the step
 * continues the trace from the work item's headers.
 */
describe('one trace from the gateway to the notification a step sent', () => {
  let receiver: OtlpReceiver;
  let platform: RunningPlatform;
  let tenant: TestTenant;
  const lines: { name: string; line: string }[] = [];
  const namespace = `e2e-trace-${randomBytes(3).toString('hex')}`;
  const gw = (path: string, request?: Parameters<typeof call>[2]) => call<Json>(platform.gatewayUrl, path, request);
  /** A Teams channel posting to `path` at the receiver, and a one-step workflow notifying it. */
  const notifyingWorkflow = async (name: string, path: string) => {
    const channel = await gw('/notifications/channels', {
      headers: withKey(tenant.test_key),
      body: { name, kind: 'teams', teams: { webhook_url: `${receiver.url}${path}` } },
    });
    expect(channel.status).toBe(201);
    const wf = await gw('/api/v1/workflow/workflows', {
      headers: withKey(tenant.test_key),
      body: {
        name: `${name}-${randomUUID().slice(0, 8)}`,
        steps: [{ id: 'notify', type: 'notification', input: { channel_id: channel.body.id, subject: name, body: name } }],
      },
    });
    expect(wf.status).toBe(201);
    return wf;
  };

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    const { PORT: _port, HOST: _host, DATABASE_URL: _db, ...common } = env.serviceEnv.run;
    platform = await startPlatform({
      databaseUrl: env.databaseUrl,
      services: ['account', 'subscription', 'run', 'notification'],
      env: {
        ...common,
        NATS_NAMESPACE: namespace,
        RATE_LIMIT_KEY_PREFIX: `rl-${namespace}`,
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        // JSON, which the test receiver reads (protobuf, the default, it only counts).
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_BSP_SCHEDULE_DELAY: '100',
        RUN_INLINE_CONCURRENCY: '0',
        LOG_LEVEL: 'info',
      },
      onLine: (name, line) => lines.push({ name, line }),
    });
    tenant = await createTenant(platform.gatewayUrl, env.adminToken, 'tracing');
  }, 120_000);

  afterAll(async () => {
    await platform?.stop();
    await receiver?.stop();
    await removeNatsNamespace(namespace);
  });

  it('covers the gateway, the run service, the worker that ran the step and the notification service', async () => {
    const wf = await notifyingWorkflow('traced', '/teams');

    // The caller's trace: every span of the run must belong to it.
    const traceId = randomBytes(16).toString('hex');
    const started = await gw('/v1/automations/run', {
      headers: withKey(tenant.test_key, { traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01` }),
      body: { automation_id: wf.body.id, input: {} },
    });
    expect(started.status).toBe(202);
    const done = await eventually(
      'the execution to finish',
      async () => {
        const e = await gw(`/run/executions/${started.body.run_id as string}`, { headers: withKey(tenant.test_key) });
        return isFinished(e.body.status as string) ? e.body : undefined;
      },
      30_000,
    );
    expect(done.status).toBe('succeeded');

    const has = (service: string, kind: number, name: (n: string) => boolean) => (s: ReceivedSpan) => s.service === service && s.kind === kind && name(s.name);
    const expected = {
      gateway: has('gateway', SERVER, (n) => n === 'POST run'),
      'run (HTTP)': has('run', SERVER, (n) => n === 'POST /v1/automations/run'),
      'run worker (JetStream)': has('run', CONSUMER, (n) => n.endsWith(' process')),
      'notification (NATS request)': has('notification', SERVER, (n) => n === 'notification.notifications.send process'),
      'notification delivery (JetStream)': has('notification', CONSUMER, (n) => n.endsWith(' process')),
    };
    const trace = await eventually(
      'the spans of the trace',
      () => {
        const spans = receiver.spans.filter((s) => s.traceId === traceId);
        return Promise.resolve(Object.values(expected).every((match) => spans.some(match)) ? spans : undefined);
      },
      15_000,
    ).catch(() => receiver.spans.filter((s) => s.traceId === traceId));
    const found = Object.fromEntries(Object.entries(expected).map(([what, match]) => [what, trace.some(match)]));
    expect({ found, spans: found && trace.map((s) => `${s.service} ${s.kind} ${s.name}`) }).toEqual({
      found: Object.fromEntries(Object.keys(expected).map((what) => [what, true])),
      spans: expect.any(Array),
    });
    // One tree: every span but the gateway's (whose parent is the caller's) has its parent in the trace.
    await new Promise((resolve) => setTimeout(resolve, 500));
    trace.splice(0, trace.length, ...receiver.spans.filter((s) => s.traceId === traceId));
    const ids = new Set(trace.map((s) => s.spanId));
    const orphans = trace.filter((s) => s.parentSpanId && !ids.has(s.parentSpanId) && !(s.service === 'gateway' && s.kind === SERVER));
    expect(orphans.map((s) => `${s.service} ${s.name}`)).toEqual([]);
    // The delivery itself carries the trace on to the webhook.
    const card = await eventually('the card at the webhook', () => Promise.resolve(receiver.requests.find((r) => r.path === '/teams')), 30_000);
    expect(card.headers.traceparent).toContain(traceId);
    // Log lines name the trace: the run's own lines, written by the worker, and the access lines.
    const logged = (name: string, msg: string) =>
      lines.filter((l) => l.name === name && l.line.includes(msg)).map((l) => JSON.parse(l.line) as Record<string, unknown>);
    const runId = started.body.run_id as string;
    expect(logged('run', '"run started"').filter((l) => l.execution_id === runId)).toEqual([
      expect.objectContaining({ trace_id: traceId, request_id: expect.any(String), workflow_id: wf.body.id, tenant_id: expect.any(String) }),
    ]);
    expect(logged('run', '"run succeeded"').filter((l) => l.execution_id === runId)).toEqual([expect.objectContaining({ trace_id: traceId })]);
    expect(logged('gateway', '/v1/automations/run')).toEqual([expect.objectContaining({ trace_id: traceId, request_id: expect.any(String) })]);
    // Queries are spans of the trace too (pg instrumentation).
    expect(trace.some((s) => s.service === 'run' && (s.attributes['db.system'] ?? s.attributes['db.system.name']) === 'postgresql')).toBe(true);
    // Each span has its attributes (set once the span is known to record, tracing.ts).
    const attributesOf = (match: (s: ReceivedSpan) => boolean) => trace.find(match)?.attributes;
    expect(attributesOf(expected.gateway)).toMatchObject({ 'http.request.method': 'POST', 'url.path': '/v1/automations/run', 'platform.service': 'run' });
    expect(Number(attributesOf(expected.gateway)?.['http.response.status_code'])).toBe(202);
    expect(attributesOf(expected['run (HTTP)'])).toMatchObject({ 'http.request.method': 'POST', 'http.route': '/v1/automations/run' });
    expect(attributesOf(expected['notification (NATS request)'])).toMatchObject({ 'messaging.system': 'nats', 'messaging.operation.type': 'process' });
    expect(attributesOf(expected['run worker (JetStream)'])).toMatchObject({ 'messaging.system': 'nats', 'messaging.consumer.group.name': expect.any(String) });
  });

  it("keeps nothing of a caller's unsampled trace, and still passes it on unsampled to the end", async () => {
    const wf = await notifyingWorkflow('untraced', '/teams-unsampled');
    // Flags 00: the caller decided not to sample. Under the default parent-based sampler no
    // service may record a span of it, nor start a trace of its own for the request.
    const traceId = randomBytes(16).toString('hex');
    const started = await gw('/v1/automations/run', {
      headers: withKey(tenant.test_key, { traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-00` }),
      body: { automation_id: wf.body.id, input: {} },
    });
    expect(started.status).toBe(202);
    const card = await eventually('the card at the webhook', () => Promise.resolve(receiver.requests.find((r) => r.path === '/teams-unsampled')), 30_000);
    // Through the gateway, the run service, the worker and the notification service, the same trace, unsampled.
    expect(card.headers.traceparent).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-00$`));
    const runId = started.body.run_id as string;
    await eventually(
      'the run to succeed',
      async () => ((await gw(`/run/executions/${runId}`, { headers: withKey(tenant.test_key) })).body.status === 'succeeded' ? true : undefined),
      30_000,
    );
    // Every process exports within 100 ms (OTEL_BSP_SCHEDULE_DELAY): wait well past it.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(receiver.spans.filter((s) => s.traceId === traceId).map((s) => `${s.service} ${s.name}`)).toEqual([]);
    // The run's log lines still name the trace, for whoever follows it from the caller's side.
    const runLines = lines.filter((l) => l.name === 'run' && l.line.includes(runId) && l.line.includes('"run started"'));
    expect(runLines.map((l) => (JSON.parse(l.line) as Json).trace_id)).toEqual([traceId]);
  });
});
