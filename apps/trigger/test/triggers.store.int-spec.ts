import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { TenantContext } from '@platform/db';
import { storeHarness, type StoreHarness } from '@platform/testing';
import type { TriggerRow } from '../src/triggers/trigger.record.js';
import { executionsRepository, triggersRepository, type NewExecution, type TriggerFields } from '../src/triggers/triggers.repository.js';

/**
 * The trigger service's state in PostgreSQL, as the application role: `trigger.listeners` (what a
 * tenant's triggers listen for, which the event consumer keeps in memory per tenant), and
 * the firing claims (`trigger.executions`): unique per trigger and fire key, then recorded started
 * or failed, and failed at the latest after counted failures or too long pending.
 */
let h: StoreHarness;

beforeAll(async () => {
  h = await storeHarness(['trigger'], 'trigger_store');
}, 60_000);

afterAll(async () => {
  await h?.close();
});

function fields(overrides: Partial<TriggerFields>): TriggerFields {
  return {
    name: 'on event',
    workflowId: randomUUID(),
    type: 'event',
    enabled: true,
    input: null,
    cron: null,
    intervalSeconds: null,
    timezone: null,
    startAt: null,
    endAt: null,
    misfire: null,
    eventType: null,
    eventFilter: null,
    webhookId: null,
    nextFireAt: null,
    ...overrides,
  };
}

function trigger(ctx: TenantContext, f: Partial<TriggerFields>, scopeId: string | null = null): Promise<TriggerRow> {
  return h.tenantDb.run(ctx, (m) =>
    triggersRepository.insert(m, { tenantId: ctx.tenantId, environmentId: ctx.environmentId, scopeId, id: randomUUID() }, fields(f)),
  );
}

const WEBHOOK = randomUUID();
const listen = async (ctx: TenantContext, on: { eventType: string } | { webhookId: string }) => {
  const listeners = await triggersRepository.listeners(h.tenantDb, ctx);
  return listeners.some((l) => ('webhookId' in on ? l.webhook_id === on.webhookId : l.event_type === on.eventType));
};

describe('trigger.listeners: the triggers of a tenant environment × what happened → whether anyone listens', () => {
  it.each<{ triggers: string; arrange: (ctx: TenantContext) => Promise<unknown>; event: { eventType: string } | { webhookId: string }; listening: boolean }>([
    { triggers: 'none', arrange: () => Promise.resolve(), event: { eventType: 'run.failed' }, listening: false },
    {
      triggers: 'an enabled event trigger for the type',
      arrange: (c) => trigger(c, { eventType: 'run.failed' }),
      event: { eventType: 'run.failed' },
      listening: true,
    },
    {
      triggers: 'an event trigger for another type',
      arrange: (c) => trigger(c, { eventType: 'run.succeeded' }),
      event: { eventType: 'run.failed' },
      listening: false,
    },
    {
      triggers: 'a disabled event trigger for the type',
      arrange: (c) => trigger(c, { eventType: 'run.failed', enabled: false }),
      event: { eventType: 'run.failed' },
      listening: false,
    },
    {
      triggers: 'a schedule trigger (no event type)',
      arrange: (c) => trigger(c, { type: 'schedule', intervalSeconds: 60, eventType: 'run.failed' }),
      event: { eventType: 'run.failed' },
      listening: false,
    },
    {
      triggers: "a customer's event trigger (asked tenant-wide, as the consumer does)",
      arrange: (c) => trigger(c, { eventType: 'run.failed' }, randomUUID()),
      event: { eventType: 'run.failed' },
      listening: true,
    },
    {
      triggers: 'an enabled webhook trigger for the webhook',
      arrange: (c) => trigger(c, { type: 'webhook', webhookId: WEBHOOK }),
      event: { webhookId: WEBHOOK },
      listening: true,
    },
    {
      triggers: 'a webhook trigger for another webhook',
      arrange: (c) => trigger(c, { type: 'webhook', webhookId: randomUUID() }),
      event: { webhookId: WEBHOOK },
      listening: false,
    },
    {
      triggers: 'a disabled webhook trigger for the webhook',
      arrange: (c) => trigger(c, { type: 'webhook', webhookId: WEBHOOK, enabled: false }),
      event: { webhookId: WEBHOOK },
      listening: false,
    },
    {
      triggers: 'only an event trigger, asked about a webhook',
      arrange: (c) => trigger(c, { eventType: 'webhook.delivery.received' }),
      event: { webhookId: WEBHOOK },
      listening: false,
    },
  ])('$triggers → $listening', async ({ arrange, event, listening }) => {
    const ctx = h.tenant();
    await arrange(ctx);
    expect(await listen(ctx, event)).toBe(listening);
  });

  it.each([
    { caller: 'another tenant', make: () => h.tenant() },
    { caller: 'another environment of the tenant', make: (ctx: TenantContext) => ({ ...ctx, environmentId: randomUUID() }) },
    { caller: 'another customer of the tenant', make: (ctx: TenantContext) => ({ ...ctx, scopeId: randomUUID() }) },
  ])("$caller cannot detect the tenant's listeners", async ({ make }) => {
    const ctx = h.tenant();
    await trigger(ctx, { eventType: 'run.failed' }, randomUUID());
    await trigger(ctx, { type: 'webhook', webhookId: WEBHOOK }, randomUUID());
    const other = make(ctx);
    expect(await listen(other, { eventType: 'run.failed' })).toBe(false);
    expect(await listen(other, { webhookId: WEBHOOK })).toBe(false);
    expect(await listen(ctx, { eventType: 'run.failed' })).toBe(true);
  });
});

function firing(ctx: TenantContext, t: TriggerRow, fireKey: string): NewExecution {
  return {
    tenantId: ctx.tenantId,
    environmentId: ctx.environmentId,
    scopeId: t.scope_id,
    id: randomUUID(),
    triggerId: t.id,
    workflowId: t.workflow_id,
    fireKey,
    scheduledFor: new Date(),
    runInput: { event: fireKey },
    status: 'pending',
    error: null,
  };
}

interface ExecutionState {
  id: string;
  fire_key: string;
  status: string;
  run_id: string | null;
  error: string | null;
  attempts: number;
}

async function executions(triggerId: string): Promise<ExecutionState[]> {
  return (
    await h.admin.query<ExecutionState>(
      `select id, fire_key, status, run_id, error, attempts from trigger.executions where trigger_id = $1 order by fired_at, id`,
      [triggerId],
    )
  ).rows;
}

describe('trigger.executions: a firing claimed once, then its start recorded', () => {
  it.each([
    { before: 'no claim', keys: ['evt-1'], answered: [true], rows: ['evt-1'] },
    { before: 'a claim of the same key', keys: ['evt-1', 'evt-1'], answered: [true, false], rows: ['evt-1'] },
    { before: 'a claim of another key', keys: ['evt-1', 'evt-2'], answered: [true, true], rows: ['evt-1', 'evt-2'] },
  ])('$before, claim → answered $answered, rows $rows (pending)', async ({ keys, answered, rows }) => {
    const ctx = h.tenant();
    const t = await trigger(ctx, { eventType: 'run.failed' });
    const answers = [];
    for (const key of keys) answers.push(await h.tenantDb.run(ctx, (m) => executionsRepository.claim(m, firing(ctx, t, key))));
    expect(answers.map((a) => a !== undefined)).toEqual(answered);
    expect(answers[0]).toMatchObject({ trigger_id: t.id, status: 'pending', fire_key: 'evt-1', run_input: { event: 'evt-1' } });
    const stored = await executions(t.id);
    expect(stored.map((e) => e.fire_key)).toEqual(rows);
    expect(stored.every((e) => e.status === 'pending' && e.attempts === 0)).toBe(true);
  });

  const RUN = randomUUID();
  it.each<{
    from: string;
    before: [string | null, 'started' | 'failed', string | null][];
    event: [string | null, 'started' | 'failed', string | null];
    to: object;
  }>([
    { from: 'pending', before: [], event: [RUN, 'started', null], to: { status: 'started', run_id: RUN, error: null, attempts: 1 } },
    {
      from: 'pending',
      before: [],
      event: [null, 'failed', 'workflow not found'],
      to: { status: 'failed', run_id: null, error: 'workflow not found', attempts: 1 },
    },
    {
      from: 'failed',
      before: [[null, 'failed', 'run service down']],
      event: [RUN, 'started', null],
      to: { status: 'started', run_id: RUN, error: null, attempts: 2 },
    },
    {
      from: 'started (a repeated start answers nothing new)',
      before: [[RUN, 'started', null]],
      event: [null, 'started', null],
      to: { status: 'started', run_id: RUN, error: null, attempts: 2 },
    },
  ])('$from, start recorded → $to', async ({ before, event, to }) => {
    const ctx = h.tenant();
    const t = await trigger(ctx, { eventType: 'run.failed' });
    const claim = await h.tenantDb.run(ctx, (m) => executionsRepository.claim(m, firing(ctx, t, 'evt')));
    for (const [run, status, error] of [...before, event]) await h.tenantDb.run(ctx, (m) => executionsRepository.recordStart(m, claim!.id, run, status, error));
    expect(await executions(t.id)).toEqual([expect.objectContaining(to)]);
  });

  it('only pending claims are in the reconciler’s scan', async () => {
    const ctx = h.tenant();
    const t = await trigger(ctx, { eventType: 'run.failed' });
    const [pending, started] = [
      await h.tenantDb.run(ctx, (m) => executionsRepository.claim(m, firing(ctx, t, 'a'))),
      await h.tenantDb.run(ctx, (m) => executionsRepository.claim(m, firing(ctx, t, 'b'))),
    ];
    await h.tenantDb.run(ctx, (m) => executionsRepository.recordStart(m, started!.id, RUN, 'started', null));
    const stale = await h.systemDb.run('test: the reconciler scan', (m) => executionsRepository.stalePending(m, 0, 10_000));
    const ids = stale.map((e) => e.id);
    expect(ids).toContain(pending!.id);
    expect(ids).not.toContain(started!.id);
  });

  it("another tenant can neither claim a firing of the tenant's trigger nor record its start", async () => {
    const ctx = h.tenant();
    const t = await trigger(ctx, { eventType: 'run.failed' });
    const claim = await h.tenantDb.run(ctx, (m) => executionsRepository.claim(m, firing(ctx, t, 'evt')));
    const other = h.tenant();
    await expect(h.tenantDb.run(other, (m) => executionsRepository.claim(m, firing(other, t, 'evt')))).rejects.toThrow(/foreign key/);
    await h.tenantDb.run(other, (m) => executionsRepository.recordStart(m, claim!.id, RUN, 'started', null));
    expect(await h.tenantDb.run(other, (m) => executionsRepository.list(m, t.id, { beforeId: null, limit: 10 }))).toEqual([]);
    expect(await executions(t.id)).toEqual([expect.objectContaining({ status: 'pending', run_id: null, attempts: 0 })]);
  });
});

describe('trigger.executions: retrying a start ends, after counted failures or too long pending', () => {
  const pendingClaim = async (ctx: TenantContext) => {
    const t = await trigger(ctx, { eventType: 'run.failed' });
    const claim = await h.tenantDb.run(ctx, (m) => executionsRepository.claim(m, firing(ctx, t, 'evt')));
    return { t, id: claim!.id };
  };
  const inScan = async (id: string) =>
    (await h.systemDb.run('test: the reconciler scan', (m) => executionsRepository.stalePending(m, 0, 10_000))).some((e) => e.id === id);

  it.each([
    { from: 'pending, no attempt', failures: 1, max: 3, to: { status: 'pending', error: null, attempts: 1 }, scanned: true },
    {
      from: 'pending, two attempts',
      failures: 3,
      max: 3,
      to: { status: 'failed', error: 'run not started after 3 attempts: boom (3)', attempts: 3 },
      scanned: false,
    },
  ])('$from, a counted failure (limit $max) → $to', async ({ failures, max, to, scanned }) => {
    const ctx = h.tenant();
    const { t, id } = await pendingClaim(ctx);
    for (let i = 1; i <= failures; i++) await h.tenantDb.run(ctx, (m) => executionsRepository.recordFailedAttempt(m, id, `boom (${i})`, max));
    expect(await executions(t.id)).toEqual([expect.objectContaining(to)]);
    expect(await inScan(id)).toBe(scanned);
  });

  it('a counted failure leaves a firing that started meanwhile as it is', async () => {
    const ctx = h.tenant();
    const { t, id } = await pendingClaim(ctx);
    const run = randomUUID();
    await h.tenantDb.run(ctx, (m) => executionsRepository.recordStart(m, id, run, 'started', null));
    await h.tenantDb.run(ctx, (m) => executionsRepository.recordFailedAttempt(m, id, 'late failure', 1));
    expect(await executions(t.id)).toEqual([expect.objectContaining({ status: 'started', run_id: run, error: null, attempts: 1 })]);
  });

  it.each([
    { from: 'pending for two hours', ageMs: 2 * 3_600_000, to: { status: 'failed', error: 'given up' }, scanned: false },
    { from: 'pending for a minute', ageMs: 60_000, to: { status: 'pending', error: null }, scanned: true },
  ])('$from, give up after an hour → $to', async ({ ageMs, to, scanned }) => {
    const ctx = h.tenant();
    const { t, id } = await pendingClaim(ctx);
    await h.admin.query(`update trigger.executions set fired_at = now() - make_interval(secs => $2::float8 / 1000) where id = $1`, [id, ageMs]);
    await h.systemDb.statement('test: give up', (m) => executionsRepository.giveUpPending(m, 3_600_000, 'given up'));
    expect(await executions(t.id)).toEqual([expect.objectContaining(to)]);
    expect(await inScan(id)).toBe(scanned);
  });
});
