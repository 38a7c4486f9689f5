import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { TenantContext } from '@platform/db';
import { storeHarness, type StoreHarness } from '@platform/testing';
import { receivingRepository, type DeliveryWrite } from '../src/webhooks/receiving.repository.js';
import type { DeliveryRow, WebhookRow } from '../src/webhooks/webhook.record.js';
import { deliveriesRepository, webhooksRepository, type NewDelivery } from '../src/webhooks/webhooks.repository.js';

/**
 * The webhook service's state in PostgreSQL: the functions of the WebhookHotPath, DeferredRunStarts
 * and StartsByKey migrations (find_webhook, record_deliveries, record_starts) and the trigger that
 * versions a webhook, called through the repositories the service uses, as the application role.
 * Each table row arranges a state, applies one event and reads back what was written.
 */
let h: StoreHarness;

beforeAll(async () => {
  h = await storeHarness(['webhook'], 'webhook_store');
}, 60_000);

afterAll(async () => {
  await h?.close();
});

async function webhook(ctx: TenantContext, overrides: { scopeId?: string | null; enabled?: boolean } = {}): Promise<WebhookRow> {
  return h.tenantDb.run(ctx, (m) =>
    webhooksRepository.insert(m, {
      tenantId: ctx.tenantId,
      environmentId: ctx.environmentId,
      scopeId: overrides.scopeId ?? null,
      id: randomUUID(),
      name: 'orders',
      workflowId: randomUUID(),
      verificationType: 'none',
      tokenHeader: null,
      sealed: null,
      responseMode: 'async',
      timeoutMs: null,
      enabled: overrides.enabled ?? true,
    }),
  );
}

function write(ctx: TenantContext, w: Pick<WebhookRow, 'id' | 'workflow_id' | 'version' | 'scope_id'>, delivery: Partial<NewDelivery> = {}): DeliveryWrite {
  return {
    version: w.version,
    duplicateId: randomUUID(),
    delivery: {
      tenantId: ctx.tenantId,
      environmentId: ctx.environmentId,
      scopeId: w.scope_id,
      id: randomUUID(),
      webhookId: w.id,
      workflowId: w.workflow_id,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: Buffer.from('{"order":1}'),
      contentType: 'application/json',
      outcome: 'accepted',
      reason: null,
      statusCode: 202,
      dedupeKey: null,
      runInput: { order: 1 },
      runId: randomUUID(),
      ...delivery,
    },
  };
}

const record = (ctx: TenantContext, writes: DeliveryWrite[]) => receivingRepository.recordMany(h.tenantDb, ctx, writes);

async function stored(webhookId: string): Promise<DeliveryRow[]> {
  return (await h.admin.query<DeliveryRow>(`select * from webhook.deliveries where webhook_id = $1 order by received_at, outcome`, [webhookId])).rows;
}

async function version(tenantId: string, id: string): Promise<string> {
  return (await h.admin.query<{ version: string }>(`select version from webhook.webhooks where tenant_id = $1 and id = $2`, [tenantId, id])).rows[0].version;
}

describe('webhook.find_webhook: who finds a webhook by its id', () => {
  it.each([
    { caller: 'its tenant environment, no scope', found: true },
    { caller: 'its own customer scope', found: true },
    { caller: 'another customer scope of the tenant', found: false },
    { caller: 'another environment of the tenant', found: false },
    { caller: 'another tenant', found: false },
  ])('$caller → found: $found', async ({ caller, found }) => {
    const ctx = h.tenant();
    const customer = randomUUID();
    const w = await webhook(ctx, { scopeId: customer });
    const callers: Record<string, TenantContext> = {
      'its tenant environment, no scope': ctx,
      'its own customer scope': { ...ctx, scopeId: customer },
      'another customer scope of the tenant': { ...ctx, scopeId: randomUUID() },
      'another environment of the tenant': { ...ctx, environmentId: randomUUID() },
      'another tenant': h.tenant(),
    };
    const row = await receivingRepository.find(h.tenantDb, callers[caller], w.id);
    if (found) expect(row).toMatchObject({ id: w.id, tenant_id: ctx.tenantId, scope_id: customer, version: '1', enabled: true });
    else expect(row).toBeUndefined();
  });

  it('answers nothing for an unknown id', async () => {
    expect(await receivingRepository.find(h.tenantDb, h.tenant(), randomUUID())).toBeUndefined();
  });
});

describe('webhook.bump_version: every change of a webhook moves its version, nothing else does', () => {
  it.each([
    { event: 'a change (name)', apply: (m: Change) => m.update({ name: 'renamed' }), after: '2' },
    { event: 'disabling it', apply: (m: Change) => m.update({ enabled: false }), after: '2' },
    { event: 'two changes', apply: async (m: Change) => (await m.update({ name: 'a' }), m.update({ name: 'b' })), after: '3' },
    { event: 'the first trigger on it (fires_triggers set)', apply: (m: Change) => m.markFiresTriggers(), after: '2' },
    { event: 'a second trigger on it (flag already set)', apply: async (m: Change) => (await m.markFiresTriggers(), m.markFiresTriggers()), after: '2' },
    {
      event: 'an update naming a version (the owner writing 10)',
      apply: (m: Change) => m.raw(`update webhook.webhooks set version = 10 where id = $1`),
      after: '2',
    },
    { event: 'another tenant updating it', apply: (m: Change) => m.asOther({ name: 'hijacked' }), after: '1' },
  ])('version 1, $event → version $after', async ({ apply, after }) => {
    const ctx = h.tenant();
    const w = await webhook(ctx);
    await apply({
      update: (c) => h.tenantDb.run(ctx, (m) => webhooksRepository.update(m, w.id, c)),
      markFiresTriggers: () => h.tenantDb.run(ctx, (m) => webhooksRepository.markFiresTriggers(m, w.id)),
      raw: (sql) => h.admin.query(sql, [w.id]),
      asOther: (c) => h.tenantDb.run(h.tenant(), (m) => webhooksRepository.update(m, w.id, c)),
    });
    expect(await version(ctx.tenantId, w.id)).toBe(after);
    if (after === '1') expect((await h.admin.query(`select name from webhook.webhooks where id = $1`, [w.id])).rows).toEqual([{ name: 'orders' }]);
  });
});

interface Change {
  update(c: { name?: string; enabled?: boolean }): Promise<unknown>;
  markFiresTriggers(): Promise<unknown>;
  raw(sql: string): Promise<unknown>;
  asOther(c: { name?: string }): Promise<unknown>;
}

describe('webhook.record_deliveries: from the webhook and its log × a delivery → the answer and the rows written', () => {
  it('no delivery yet, accepted with a key → the delivery, stored with its request and run id, not started', async () => {
    const ctx = h.tenant();
    const w = await webhook(ctx);
    const item = write(ctx, w, { dedupeKey: 'evt-1' });
    const answer = await record(ctx, [item]);
    expect([...answer]).toEqual([[0, { id: item.delivery.id, outcome: 'accepted', run_id: item.delivery.runId, started_at: null, start_error: null }]]);
    expect(await stored(w.id)).toEqual([
      expect.objectContaining({
        tenant_id: ctx.tenantId,
        environment_id: ctx.environmentId,
        id: item.delivery.id,
        workflow_id: w.workflow_id,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: Buffer.from('{"order":1}'),
        outcome: 'accepted',
        status_code: 202,
        dedupe_key: 'evt-1',
        run_input: { order: 1 },
        run_id: item.delivery.runId,
        started_at: null,
        start_error: null,
        start_attempts: 0,
      }),
    ]);
  });

  it.each([
    { from: 'accepted, not started', started: false },
    { from: 'accepted and started', started: true },
  ])('a delivery with the key, $from; the same key again → the first delivery answered, a duplicate logged', async ({ started }) => {
    const ctx = h.tenant();
    const w = await webhook(ctx);
    const first = write(ctx, w, { dedupeKey: 'evt-1' });
    await record(ctx, [first]);
    if (started) await receivingRepository.recordStarts(h.tenantDb, ctx, [{ id: first.delivery.id, error: null }]);
    const again = write(ctx, w, { dedupeKey: 'evt-1', body: Buffer.from('{"order":2}') });
    const answer = (await record(ctx, [again])).get(0);
    expect(answer).toEqual({
      id: first.delivery.id,
      outcome: 'accepted',
      run_id: first.delivery.runId,
      started_at: started ? expect.any(Date) : null,
      start_error: null,
    });
    const rows = await stored(w.id);
    expect(rows).toHaveLength(2);
    expect(rows.find((r) => r.id === again.duplicateId)).toMatchObject({
      outcome: 'duplicate',
      reason: `duplicate of ${first.delivery.id}`,
      status_code: 200,
      dedupe_key: null,
      run_id: null,
      run_input: null,
      body: Buffer.from('{"order":2}'),
    });
    expect(rows.some((r) => r.id === again.delivery.id)).toBe(false);
  });

  it('the same key twice in one batch → one accepted delivery, the second item answered with it and logged as a duplicate', async () => {
    const ctx = h.tenant();
    const w = await webhook(ctx);
    const [a, b] = [write(ctx, w, { dedupeKey: 'k' }), write(ctx, w, { dedupeKey: 'k' })];
    const answer = await record(ctx, [a, b]);
    expect(answer.get(0)?.id).toBe(a.delivery.id);
    expect(answer.get(1)?.id).toBe(a.delivery.id);
    expect((await stored(w.id)).map((r) => [r.id, r.outcome]).sort()).toEqual(
      [
        [a.delivery.id, 'accepted'],
        [b.duplicateId, 'duplicate'],
      ].sort(),
    );
  });

  it('deliveries without a key are never duplicates', async () => {
    const ctx = h.tenant();
    const w = await webhook(ctx);
    const [a, b] = [write(ctx, w), write(ctx, w)];
    const answer = await record(ctx, [a, b]);
    expect([answer.get(0)?.id, answer.get(1)?.id]).toEqual([a.delivery.id, b.delivery.id]);
    expect((await stored(w.id)).map((r) => r.outcome)).toEqual(['accepted', 'accepted']);
  });

  it('a rejected delivery is logged with its reason and status, and has no run', async () => {
    const ctx = h.tenant();
    const w = await webhook(ctx);
    const item = write(ctx, w, { outcome: 'rejected', reason: 'bad signature', statusCode: 401, runInput: null, runId: null });
    expect((await record(ctx, [item])).get(0)).toMatchObject({ id: item.delivery.id, outcome: 'rejected', run_id: null });
    expect(await stored(w.id)).toEqual([expect.objectContaining({ outcome: 'rejected', reason: 'bad signature', status_code: 401, run_id: null })]);
  });

  it.each([
    { state: 'changed since the caller read it (older version)', arrange: (ctx: TenantContext, w: WebhookRow) => rename(ctx, w) },
    { state: 'disabled', arrange: (ctx: TenantContext, w: WebhookRow) => h.tenantDb.run(ctx, (m) => webhooksRepository.update(m, w.id, { enabled: false })) },
    { state: 'deleted', arrange: (ctx: TenantContext, w: WebhookRow) => h.tenantDb.run(ctx, (m) => webhooksRepository.delete(m, w.id)) },
  ])('webhook $state → no answer for the item, nothing written', async ({ arrange }) => {
    const ctx = h.tenant();
    const w = await webhook(ctx);
    await arrange(ctx, w);
    expect((await record(ctx, [write(ctx, w, { dedupeKey: 'k' })])).size).toBe(0);
    expect(await stored(w.id)).toEqual([]);
  });

  it('a batch with one stale item → only the current item answered and written, at its index', async () => {
    const ctx = h.tenant();
    const [stale, current] = [await webhook(ctx), await webhook(ctx)];
    await rename(ctx, stale);
    const answer = await record(ctx, [write(ctx, stale), write(ctx, current)]);
    expect([...answer.keys()]).toEqual([1]);
    expect(await stored(stale.id)).toEqual([]);
    expect(await stored(current.id)).toHaveLength(1);
  });

  it("another tenant's context, naming the webhook, its version and an existing key → nothing answered or written, not even a duplicate", async () => {
    const owner = h.tenant();
    const w = await webhook(owner);
    const first = write(owner, w, { dedupeKey: 'k' });
    await record(owner, [first]);
    const other = h.tenant();
    expect((await record(other, [write(other, w, { dedupeKey: 'k' })])).size).toBe(0);
    expect((await record(other, [write(other, w)])).size).toBe(0);
    expect((await stored(w.id)).map((r) => r.id)).toEqual([first.delivery.id]);
    expect(await h.tenantDb.run(other, (m) => deliveriesRepository.get(m, w.id, first.delivery.id))).toBeUndefined();
  });
});

async function rename(ctx: TenantContext, w: WebhookRow): Promise<void> {
  await h.tenantDb.run(ctx, (m) => webhooksRepository.update(m, w.id, { name: 'renamed' }));
}

interface StartState {
  started_at: Date | null;
  start_error: string | null;
  start_attempts: number;
}

describe('webhook.record_starts: from a delivery’s start state × a start result → the state written, and the reconciler’s view', () => {
  const unstarted = async (ctx: TenantContext) => {
    const w = await webhook(ctx);
    const item = write(ctx, w);
    await record(ctx, [item]);
    return item.delivery.id;
  };
  const starts = (ctx: TenantContext, id: string, ...errors: (string | null)[]) =>
    errors.reduce<Promise<void>>((p, error) => p.then(() => receivingRepository.recordStarts(h.tenantDb, ctx, [{ id, error }])), Promise.resolve());

  it.each([
    { from: 'not started', before: [], event: null, to: { started: true, start_error: null, start_attempts: 1 }, scanned: false },
    {
      from: 'not started',
      before: [],
      event: 'workflow not found',
      to: { started: false, start_error: 'workflow not found', start_attempts: 1 },
      scanned: false,
    },
    { from: 'started', before: [null], event: null, to: { started: true, start_error: null, start_attempts: 2 }, scanned: false },
    { from: 'failed to start', before: ['run service down'], event: null, to: { started: true, start_error: null, start_attempts: 2 }, scanned: false },
    {
      from: 'failed to start',
      before: ['run service down'],
      event: 'still down',
      to: { started: false, start_error: 'still down', start_attempts: 2 },
      scanned: false,
    },
  ])('$from, start result error=$event → $to', async ({ before, event, to, scanned }) => {
    const ctx = h.tenant();
    const id = await unstarted(ctx);
    await starts(ctx, id, ...before);
    const startedBefore = (await h.admin.query<StartState>(`select started_at from webhook.deliveries where id = $1`, [id])).rows[0].started_at;
    await starts(ctx, id, event);
    const [row] = (await h.admin.query<StartState>(`select started_at, start_error, start_attempts from webhook.deliveries where id = $1`, [id])).rows;
    expect({ started: row.started_at !== null, start_error: row.start_error, start_attempts: row.start_attempts }).toEqual(to);
    // A repeated start keeps the instant of the first.
    if (startedBefore) expect(row.started_at).toEqual(startedBefore);
    expect(await inReconcilerScan(id)).toBe(scanned);
  });

  it('an accepted delivery not yet started is in the reconciler’s scan, and leaves it once started', async () => {
    const ctx = h.tenant();
    const id = await unstarted(ctx);
    expect(await inReconcilerScan(id)).toBe(true);
    await starts(ctx, id, null);
    expect(await inReconcilerScan(id)).toBe(false);
  });

  it('a batch records each delivery its own result', async () => {
    const ctx = h.tenant();
    const [a, b] = [await unstarted(ctx), await unstarted(ctx)];
    await receivingRepository.recordStarts(h.tenantDb, ctx, [
      { id: a, error: null },
      { id: b, error: 'gone' },
    ]);
    const rows = (
      await h.admin.query<StartState & { id: string }>(`select id, started_at, start_error, start_attempts from webhook.deliveries where id = any($1)`, [
        [a, b],
      ])
    ).rows;
    expect(rows.find((r) => r.id === a)).toMatchObject({ started_at: expect.any(Date), start_error: null, start_attempts: 1 });
    expect(rows.find((r) => r.id === b)).toMatchObject({ started_at: null, start_error: 'gone', start_attempts: 1 });
  });

  it("another tenant's context naming the delivery changes nothing; an unknown id is no error", async () => {
    const ctx = h.tenant();
    const id = await unstarted(ctx);
    await receivingRepository.recordStarts(h.tenantDb, h.tenant(), [{ id, error: 'hijacked' }]);
    await receivingRepository.recordStarts(h.tenantDb, { ...ctx, environmentId: randomUUID() }, [{ id, error: 'other environment' }]);
    await receivingRepository.recordStarts(h.tenantDb, ctx, [{ id: randomUUID(), error: null }]);
    expect((await h.admin.query(`select started_at, start_error, start_attempts from webhook.deliveries where id = $1`, [id])).rows).toEqual([
      { started_at: null, start_error: null, start_attempts: 0 },
    ]);
  });
});

async function inReconcilerScan(id: string): Promise<boolean> {
  const rows = await h.systemDb.run('test: the reconciler scan', (m) => deliveriesRepository.unstarted(m, 0, 10_000));
  return rows.some((r) => r.id === id);
}

describe('the first versions of the functions', () => {
  it('record_delivery and record_start are gone (replaced by record_deliveries and record_starts)', async () => {
    const { rows } = await h.admin.query(
      `select proname from pg_proc where pronamespace = 'webhook'::regnamespace and proname in ('record_delivery', 'record_start', 'record_deliveries', 'record_starts') order by proname`,
    );
    expect(rows).toEqual([{ proname: 'record_deliveries' }, { proname: 'record_starts' }]);
  });
});
