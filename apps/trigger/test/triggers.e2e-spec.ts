import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  call,
  createTenant,
  e2eEnvironment,
  freePort,
  serviceEntry,
  startProcess,
  withKey,
  type ManagedProcess,
  type TestTenant,
  sleep,
  eventually,
} from '@platform/testing';

const env = e2eEnvironment();
type Json = Record<string, unknown> & { data?: Record<string, unknown>[]; details?: { field: string }[] };
const gw = (path: string, request?: Parameters<typeof call>[2]) => call<Json>(env.gatewayUrl, path, request);

async function createWorkflow(
  tenant: TestTenant,
  steps: unknown[] = [{ id: 'echo', type: 'transform', input: { at: '{% input.scheduled_for %}' } }],
): Promise<string> {
  const res = await gw('/api/v1/workflow/workflows', { headers: withKey(tenant.test_key), body: { name: `wf-${randomUUID().slice(0, 8)}`, steps } });
  if (res.status !== 201) throw new Error(`workflow not created: ${res.status} ${res.text}`);
  return res.body.id as string;
}

async function all(tenant: TestTenant, path: string): Promise<Record<string, unknown>[]> {
  const rows: Record<string, unknown>[] = [];
  let cursor: string | null = null;
  do {
    const sep = path.includes('?') ? '&' : '?';
    const page: Json = (await gw(`${path}${sep}limit=200${cursor ? `&cursor=${cursor}` : ''}`, { headers: withKey(tenant.test_key) })).body;
    rows.push(...(page.data ?? []));
    cursor = (page.next_cursor as string | null) ?? null;
  } while (cursor);
  return rows;
}

async function replica(): Promise<ManagedProcess> {
  const port = await freePort();
  return startProcess({
    name: 'trigger-replica',
    entry: serviceEntry('trigger'),
    env: { ...env.serviceEnv.trigger, PORT: String(port) },
    healthUrl: `http://127.0.0.1:${port}/actuator/health`,
    pidDir: env.pidDir,
  });
}

describe('triggers end to end', () => {
  let a: TestTenant;
  let b: TestTenant;
  const extra: ManagedProcess[] = [];

  beforeAll(async () => {
    [a, b] = await Promise.all([createTenant(env.gatewayUrl, env.adminToken, 'triggers-a'), createTenant(env.gatewayUrl, env.adminToken, 'triggers-b')]);
  });

  afterAll(async () => {
    for (const p of extra) await p.stop().catch(() => undefined);
  });

  it('fires a per-second schedule exactly once per tick on two replicas, through a SIGKILL and a restart, and stops at once when disabled', async () => {
    extra.push(await replica());
    const workflowId = await createWorkflow(a);
    const created = await gw('/triggers', {
      headers: withKey(a.test_key),
      body: { name: 'every-second', workflow_id: workflowId, type: 'schedule', schedule: { cron: '* * * * * *', timezone: 'UTC', misfire: 'fire_once' } },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      id: expect.any(String),
      status: 'enabled',
      type: 'schedule',
      next_fire_at: expect.any(String),
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const id = created.body.id as string;

    await sleep(4000);
    await extra[0].kill();
    await sleep(1500);
    extra.push(await replica());
    await sleep(4000);

    const disabled = await gw(`/triggers/${id}/disable`, { method: 'PUT', headers: withKey(a.test_key) });
    const disabledAt = Date.now();
    expect(disabled.status).toBe(200);
    expect(disabled.body).toMatchObject({ status: 'disabled', next_fire_at: null });

    // Every claimed tick gets its run (a claim orphaned by the SIGKILL is started by the reconciler).
    const executions = await eventually('every tick started', async () => {
      const rows = await all(a, `/triggers/${id}/executions`);
      return rows.every((e) => e.status === 'started') ? rows : undefined;
    });
    const ticks = executions.map((e) => Date.parse(e.scheduled_for as string)).sort((x, y) => x - y);
    expect(ticks.length).toBeGreaterThanOrEqual(8);
    // None doubled, none missed: one execution per second, no gaps.
    expect(new Set(ticks).size).toBe(ticks.length);
    for (let i = 1; i < ticks.length; i++) expect(ticks[i] - ticks[i - 1]).toBe(1000);
    expect(ticks[ticks.length - 1]).toBeLessThanOrEqual(disabledAt);
    const runIds = new Set(executions.map((e) => e.run_id));
    expect(runIds.size).toBe(executions.length);
    const runs = await all(a, `/run/executions?workflow_id=${workflowId}`);
    expect(runs).toHaveLength(executions.length);
    expect(runs.every((r) => (r.trigger as { type: string; id: string }).type === 'schedule' && (r.trigger as { id: string }).id === id)).toBe(true);

    // Disabled: nothing more fires on either replica.
    await sleep(2500);
    expect(await all(a, `/triggers/${id}/executions`)).toHaveLength(executions.length);

    // Enabled again: it resumes from now (what passed while disabled is not owed).
    const enabled = await gw(`/triggers/${id}/enable`, { method: 'PUT', headers: withKey(a.test_key) });
    expect(enabled.body.status).toBe('enabled');
    const resumed = await eventually('ticks after enabling', async () => {
      const rows = await all(a, `/triggers/${id}/executions`);
      return rows.length >= executions.length + 2 ? rows : undefined;
    });
    const after = resumed.filter((e) => Date.parse(e.scheduled_for as string) > disabledAt);
    expect(after.length).toBeGreaterThanOrEqual(2);
    await gw(`/triggers/${id}/disable`, { method: 'PUT', headers: withKey(a.test_key) });
  }, 120_000);

  it('maps the tick into the run input with a JSONata expression', async () => {
    const workflowId = await createWorkflow(a, [{ id: 'echo', type: 'transform', input: { input: '{% input %}' } }]);
    const created = await gw('/triggers', {
      headers: withKey(a.test_key),
      body: {
        name: 'mapped',
        workflow_id: workflowId,
        type: 'schedule',
        schedule: { interval_seconds: 1 },
        input: '{ "when": scheduled_for, "who": trigger.name }',
      },
    });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const execution = await eventually('a started tick', async () => (await all(a, `/triggers/${id}/executions`)).find((e) => e.status === 'started'));
    await gw(`/triggers/${id}/disable`, { method: 'PUT', headers: withKey(a.test_key) });
    const run = await eventually('the run', async () => {
      const r = await gw(`/run/executions/${execution.run_id as string}`, { headers: withKey(a.test_key) });
      return r.body.status === 'succeeded' ? r.body : undefined;
    });
    expect(run.input).toEqual({ when: execution.scheduled_for, who: 'mapped' });
  });

  it('refuses bad input with 400 naming the field', async () => {
    const workflowId = await createWorkflow(a);
    const bad = async (body: Record<string, unknown>, field: string) => {
      const res = await gw('/triggers', { headers: withKey(a.test_key), body: { name: 't', workflow_id: workflowId, type: 'schedule', ...body } });
      expect([field, res.status]).toEqual([field, 400]);
      expect(res.body.details!.map((d) => d.field)).toContain(field);
    };
    await bad({ schedule: { cron: '61 * * * *' } }, 'schedule.cron');
    await bad({ schedule: { cron: '* * *' } }, 'schedule.cron');
    await bad({ schedule: { cron: '* * * * *', timezone: 'Mars/Olympus' } }, 'schedule.timezone');
    await bad({ schedule: { cron: '* * * * *', misfire: 'later' } }, 'schedule.misfire');
    await bad({ schedule: { interval_seconds: 0 } }, 'schedule.interval_seconds');
    await bad({ schedule: { cron: '* * * * *' }, input: '{ broken' }, 'input');
    await bad({ type: 'event', event: { type: 'run.execution.failed', filter: '(((' } }, 'event.filter');
    await bad({ type: 'event', event: { type: 'nope' } }, 'event.type');
    await bad({ type: 'cron' }, 'type');
    await bad({ workflow_id: 'x', schedule: { cron: '* * * * *' } }, 'workflow_id');
    expect((await gw('/triggers/not-a-uuid', { headers: withKey(a.test_key) })).status).toBe(400);
  });

  it('refuses an event or schedule that is not an object with a validation message naming it', async () => {
    const workflowId = await createWorkflow(a);
    for (const [type, field, value] of [
      ['event', 'event', []],
      ['event', 'event', [{ type: 'run.execution.failed' }]],
      ['event', 'event', 'run.execution.failed'],
      ['schedule', 'schedule', []],
    ] as const) {
      const res = await gw('/triggers', { headers: withKey(a.test_key), body: { name: 't', workflow_id: workflowId, type, [field]: value } });
      expect([JSON.stringify(value), res.status]).toEqual([JSON.stringify(value), 400]);
      // `event: []` used to read Array.prototype.filter as the filter: "path.charAt is not a function".
      expect(res.body.details).toContainEqual({ field, message: 'must be an object' });
      expect(res.body.message).not.toMatch(/is not a function/);
    }
  });

  it('refuses null in a field that cannot be null, takes it where the schema says nullable, and refuses a missing body that has required fields', async () => {
    const workflowId = await createWorkflow(a);
    const created = await gw('/triggers', {
      headers: withKey(a.test_key),
      body: { name: 'nullable', workflow_id: workflowId, type: 'schedule', input: { report: 'daily' }, schedule: { cron: '0 0 1 1 *' } },
    });
    expect(created.status).toBe(201);
    const patch = (body: unknown) => gw(`/triggers/${created.body.id as string}`, { method: 'PATCH', headers: withKey(a.test_key), body });
    // IsOptional let null through: `workflow_id: null` was a 200 that changed nothing.
    for (const [field, body] of [
      ['workflow_id', { workflow_id: null }],
      ['name', { name: null }],
      ['enabled', { enabled: null }],
      ['schedule', { schedule: null }],
      ['schedule.timezone', { schedule: { cron: '0 0 1 1 *', timezone: null } }],
    ] as const) {
      const res = await patch(body);
      expect([field, res.status, res.body.code]).toEqual([field, 400, 'validation_failed']);
      expect(res.body.details).toEqual([{ field, message: 'must not be null' }]);
    }
    // `input` is documented nullable: null clears it.
    const cleared = await patch({ input: null });
    expect([cleared.status, cleared.body.input]).toEqual([200, null]);
    const noBody = await gw('/triggers', { method: 'POST', headers: withKey(a.test_key) });
    expect([noBody.status, noBody.body.code]).toEqual([400, 'validation_failed']);
    expect(noBody.body.details?.map((d) => d.field)).toEqual(expect.arrayContaining(['name', 'workflow_id', 'type']));
  });

  it('lists with filters and pagination and keeps tenants apart', async () => {
    const workflowId = await createWorkflow(a);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await gw('/triggers', {
        headers: withKey(a.test_key),
        body: { name: `t${i}`, workflow_id: workflowId, type: 'schedule', enabled: i !== 0, schedule: { cron: '0 0 1 1 *', timezone: 'Europe/Paris' } },
      });
      expect(res.status).toBe(201);
      ids.push(res.body.id as string);
    }
    const page1 = await gw(`/triggers?workflow_id=${workflowId}&limit=2`, { headers: withKey(a.test_key) });
    expect(page1.body.data).toHaveLength(2);
    const page2 = await gw(`/triggers?workflow_id=${workflowId}&limit=2&cursor=${page1.body.next_cursor as string}`, { headers: withKey(a.test_key) });
    expect(page2.body.data).toHaveLength(1);
    expect((await gw(`/triggers?workflow_id=${workflowId}&status=disabled`, { headers: withKey(a.test_key) })).body.data!.map((t) => t.id)).toEqual([ids[0]]);
    expect((await gw(`/triggers?workflow_id=${workflowId}&type=event`, { headers: withKey(a.test_key) })).body.data).toHaveLength(0);
    const one = await gw(`/triggers/${ids[1]}`, { headers: withKey(a.test_key) });
    expect(one.body.next_fire_at).toMatch(/-01-0(1T00|1T23|31T23)|-12-31T23:00:00.000Z/);
    const patched = await gw(`/triggers/${ids[1]}`, {
      method: 'PATCH',
      headers: withKey(a.test_key),
      body: { name: 'renamed', schedule: { interval_seconds: 3600 } },
    });
    expect(patched.body).toMatchObject({ name: 'renamed', schedule: { cron: null, interval_seconds: 3600, timezone: 'UTC' } });

    const unknown = randomUUID();
    for (const [method, suffix, body] of [
      ['GET', '', undefined],
      ['PATCH', '', { name: 'x' }],
      ['DELETE', '', undefined],
      ['GET', '/executions', undefined],
      ['PUT', '/enable', undefined],
      ['PUT', '/disable', undefined],
    ] as const) {
      const theirs = await gw(`/triggers/${ids[1]}${suffix}`, { method, headers: withKey(b.test_key), body });
      const none = await gw(`/triggers/${unknown}${suffix}`, { method, headers: withKey(b.test_key), body });
      expect([method, suffix, theirs.status]).toEqual([method, suffix, 404]);
      expect({ ...theirs.body, request_id: null }).toEqual({ ...none.body, request_id: null });
    }
    expect((await gw('/triggers', { headers: withKey(b.test_key) })).body.data!.map((t) => t.id)).not.toContain(ids[1]);
    expect((await gw(`/triggers/${ids[1]}`, { method: 'DELETE', headers: withKey(a.test_key) })).status).toBe(204);
    expect((await gw(`/triggers/${ids[1]}`, { headers: withKey(a.test_key) })).status).toBe(404);
  });
});
