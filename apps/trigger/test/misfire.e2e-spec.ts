import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from '@jest/globals';
import {
  call,
  createTenant,
  e2eEnvironment,
  eventually,
  serviceEntry,
  startProcess,
  withKey,
  type TestTenant,
  processExited,
  processIds,
  sleep,
} from '@platform/testing';

const env = e2eEnvironment();
type Json = Record<string, unknown> & { data?: Record<string, unknown>[] };
const gw = (path: string, request?: Parameters<typeof call>[2]) => call<Json>(env.gatewayUrl, path, request);

async function stopTriggerService(): Promise<void> {
  const pids = processIds(env.pidDir, 'trigger');
  expect(pids.length).toBeGreaterThan(0);
  for (const pid of pids) process.kill(pid, 'SIGKILL');
  for (const pid of pids) await processExited(pid);
}

async function startTriggerService(extraEnv: Record<string, string> = {}): Promise<void> {
  await startProcess({
    name: 'trigger',
    entry: serviceEntry('trigger'),
    env: { ...env.serviceEnv.trigger, ...extraEnv },
    healthUrl: `${env.serviceUrls.trigger}/actuator/health`,
    pidDir: env.pidDir,
  });
}

describe('schedules and events missed while no trigger replica ran', () => {
  let tenant: TestTenant;

  beforeAll(async () => {
    tenant = await createTenant(env.gatewayUrl, env.adminToken, 'misfire');
  });

  it('fires the missed stretch once with fire_once, records it skipped with skip, then carries on', async () => {
    const wf = await gw('/api/v1/workflow/workflows', {
      headers: withKey(tenant.test_key),
      body: { name: `wf-${randomUUID().slice(0, 8)}`, steps: [{ id: 't', type: 'transform', input: { ok: true } }] },
    });
    const make = async (misfire: string) =>
      (
        await gw('/triggers', {
          headers: withKey(tenant.test_key),
          body: { name: misfire, workflow_id: wf.body.id, type: 'schedule', schedule: { cron: '* * * * * *', misfire } },
        })
      ).body.id as string;
    const once = await make('fire_once');
    const skip = await make('skip');
    await sleep(1500);

    // Every trigger replica down for ~6 s; the one that comes back counts a tick over 2 s late as missed.
    await stopTriggerService();
    const downFrom = Date.now();
    await sleep(6000);
    const upAt = Date.now();
    await startTriggerService({ TRIGGER_MISFIRE_GRACE_MS: '2000' });
    await sleep(3000);
    for (const id of [once, skip]) await gw(`/triggers/${id}/disable`, { method: 'PUT', headers: withKey(tenant.test_key) });

    type Row = { t: number; lag: number; status: string; error: string | null };
    const list = async (id: string): Promise<Row[]> =>
      ((await gw(`/triggers/${id}/executions?limit=200`, { headers: withKey(tenant.test_key) })).body.data ?? []).map((e) => ({
        t: Date.parse(e.scheduled_for as string),
        lag: Date.parse(e.fired_at as string) - Date.parse(e.scheduled_for as string),
        status: e.status as string,
        error: (e.error as string | null) ?? null,
      }));
    /** Ticks in order; the outage is the one gap; what follows it is the first tick fired after the restart. */
    const afterOutage = (rows: Row[]) => {
      const ticks = rows.filter((e) => e.status !== 'skipped').sort((x, y) => x.t - y.t);
      expect(new Set(ticks.map((e) => e.t)).size).toBe(ticks.length);
      const gaps = ticks.slice(1).map((e, i) => ({ size: e.t - ticks[i].t, next: e }));
      const big = gaps.filter((g) => g.size > 1000);
      expect(big).toHaveLength(1);
      expect(big[0].size).toBeGreaterThanOrEqual(3000);
      expect(gaps.filter((g) => g.next.t > big[0].next.t).every((g) => g.size === 1000)).toBe(true);
      return big[0].next;
    };

    // fire_once: the latest missed tick (older than the grace period when the replica came back) fires once.
    const onceRows = await list(once);
    expect(afterOutage(onceRows).lag).toBeGreaterThan(2000);
    expect(onceRows.filter((e) => e.status === 'skipped')).toHaveLength(0);

    // skip: none of the missed ticks fires; one execution records how many were skipped.
    const skipRows = await list(skip);
    expect(afterOutage(skipRows).lag).toBeLessThan(2500);
    const skipped = skipRows.filter((e) => e.status === 'skipped');
    expect(skipped).toHaveLength(1);
    expect(skipped[0].error).toMatch(/tick\(s\) missed/);
    expect(downFrom).toBeLessThan(upAt);
  }, 90_000);

  it('fires an event trigger for an event published while no trigger replica ran, once', async () => {
    const workflow = async (steps: unknown[]) =>
      (await gw('/api/v1/workflow/workflows', { headers: withKey(tenant.test_key), body: { name: `wf-${randomUUID().slice(0, 8)}`, steps } })).body
        .id as string;
    const failing = await workflow([{ id: 'boom', type: 'fail', input: { message: 'down', code: 'bad' } }]);
    const handler = await workflow([{ id: 'note', type: 'transform', input: { seen: '{% input.execution_id %}' } }]);
    const trigger = await gw('/triggers', {
      headers: withKey(tenant.test_key),
      body: {
        name: 'on-failure',
        workflow_id: handler,
        type: 'event',
        event: { type: 'run.execution.failed', filter: `workflow_id = "${failing}"` },
        input: '{ "execution_id": event.execution_id }',
      },
    });
    expect(trigger.status).toBe(201);

    await stopTriggerService();
    const started = await gw('/v1/automations/run', { headers: withKey(tenant.test_key), body: { automation_id: failing, input: {} } });
    expect(started.status).toBe(202);
    const failedRun = started.body.run_id as string;
    await eventually('the failing run to fail', async () => {
      const r = await gw(`/run/executions/${failedRun}`, { headers: withKey(tenant.test_key) });
      return r.body.status === 'failed' ? true : undefined;
    });
    await startTriggerService();

    const handled = await eventually('the handler run', async () => {
      const runs = (await gw(`/run/executions?workflow_id=${handler}`, { headers: withKey(tenant.test_key) })).body.data ?? [];
      return runs.length > 0 ? runs : undefined;
    });
    await sleep(1500);
    const runs = (await gw(`/run/executions?workflow_id=${handler}`, { headers: withKey(tenant.test_key) })).body.data ?? [];
    expect(runs).toHaveLength(1);
    const run = await gw(`/run/executions/${handled[0].id as string}`, { headers: withKey(tenant.test_key) });
    expect(run.body.input).toEqual({ execution_id: failedRun });
  }, 60_000);
});
