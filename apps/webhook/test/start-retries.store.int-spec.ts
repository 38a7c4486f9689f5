import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { TenantContext } from '@platform/db';
import { storeHarness, type StoreHarness } from '@platform/testing';
import { receivingRepository } from '../src/webhooks/receiving.repository.js';
import { deliveriesRepository, webhooksRepository } from '../src/webhooks/webhooks.repository.js';

/**
 * How retrying a delivery's run start ends: record_start_failures counts the failed attempts and
 * the one reaching the limit records the error; the reconciler gives up on a delivery unstarted
 * for too long. Before, a start that kept failing was retried every pass, forever. Each row
 * arranges a state, applies one event and reads back what was written and what the reconciler sees.
 */
let h: StoreHarness;

beforeAll(async () => {
  h = await storeHarness(['webhook'], 'webhook_retries');
}, 60_000);

afterAll(async () => {
  await h?.close();
});

interface StartState {
  started_at: Date | null;
  start_error: string | null;
  start_attempts: number;
}

/** An accepted delivery whose run has not started, received `ageMs` ago. */
async function unstarted(ctx: TenantContext, ageMs = 0): Promise<string> {
  const w = await h.tenantDb.run(ctx, (m) =>
    webhooksRepository.insert(m, {
      ...ctx,
      scopeId: null,
      id: randomUUID(),
      name: 'orders',
      workflowId: randomUUID(),
      verificationType: 'none',
      tokenHeader: null,
      sealed: null,
      responseMode: 'async',
      timeoutMs: null,
      enabled: true,
    }),
  );
  const id = randomUUID();
  await receivingRepository.recordMany(h.tenantDb, ctx, [
    {
      version: w.version,
      duplicateId: randomUUID(),
      delivery: {
        ...ctx,
        scopeId: null,
        id,
        webhookId: w.id,
        workflowId: w.workflow_id,
        method: 'POST',
        headers: {},
        body: Buffer.from('{}'),
        contentType: 'application/json',
        outcome: 'accepted',
        reason: null,
        statusCode: 202,
        dedupeKey: null,
        runInput: {},
        runId: randomUUID(),
      },
    },
  ]);
  if (ageMs) await h.admin.query(`update webhook.deliveries set received_at = now() - make_interval(secs => $2::float8 / 1000) where id = $1`, [id, ageMs]);
  return id;
}

const state = async (id: string): Promise<StartState> =>
  (await h.admin.query<StartState>(`select started_at, start_error, start_attempts from webhook.deliveries where id = $1`, [id])).rows[0];

async function inReconcilerScan(id: string): Promise<boolean> {
  const rows = await h.systemDb.run('test: the reconciler scan', (m) => deliveriesRepository.unstarted(m, 0, 10_000));
  return rows.some((r) => r.id === id);
}

const fail = (ctx: TenantContext, id: string, times: number, max: number) =>
  Array.from({ length: times }).reduce<Promise<void>>(
    (p, _, i) => p.then(() => receivingRepository.recordStartFailures(h.tenantDb, ctx, [{ id, error: `run service failed (${i + 1})` }], max)),
    Promise.resolve(),
  );

describe('webhook.record_start_failures: from a delivery’s failed attempts × one more failure → the state written, and the reconciler’s view', () => {
  it.each([
    { from: 'no attempt', before: 0, max: 3, to: { start_error: null, start_attempts: 1 }, scanned: true },
    { from: 'one attempt short of the limit', before: 1, max: 3, to: { start_error: null, start_attempts: 2 }, scanned: true },
    {
      from: 'the last attempt allowed',
      before: 2,
      max: 3,
      to: { start_error: 'run not started after 3 attempts: run service failed (3)', start_attempts: 3 },
      scanned: false,
    },
    {
      from: 'a limit of one',
      before: 0,
      max: 1,
      to: { start_error: 'run not started after 1 attempts: run service failed (1)', start_attempts: 1 },
      scanned: false,
    },
  ])('$from (limit $max) → $to', async ({ before, max, to, scanned }) => {
    const ctx = h.tenant();
    const id = await unstarted(ctx);
    await fail(ctx, id, before + 1, max);
    const row = await state(id);
    expect({ start_error: row.start_error, start_attempts: row.start_attempts }).toEqual(to);
    expect(row.started_at).toBeNull();
    expect(await inReconcilerScan(id)).toBe(scanned);
  });

  it('leaves a delivery that started or failed for good meanwhile as it is', async () => {
    const ctx = h.tenant();
    const [started, refused] = [await unstarted(ctx), await unstarted(ctx)];
    await receivingRepository.recordStarts(h.tenantDb, ctx, [
      { id: started, error: null },
      { id: refused, error: 'run not started: workflow not found' },
    ]);
    await fail(ctx, started, 1, 1);
    await fail(ctx, refused, 1, 1);
    expect(await state(started)).toMatchObject({ started_at: expect.any(Date), start_error: null, start_attempts: 1 });
    expect(await state(refused)).toMatchObject({ started_at: null, start_error: 'run not started: workflow not found', start_attempts: 1 });
  });

  it("another tenant's context naming the delivery changes nothing", async () => {
    const ctx = h.tenant();
    const id = await unstarted(ctx);
    await fail(h.tenant(), id, 1, 1);
    expect(await state(id)).toEqual({ started_at: null, start_error: null, start_attempts: 0 });
  });
});

describe('deliveriesRepository.giveUpUnstarted: from a delivery’s age and start state → recorded as failed or left to the reconciler', () => {
  const giveUp = (maxAgeMs: number) =>
    h.systemDb.statement('test: give up', (m) =>
      deliveriesRepository.giveUpUnstarted(m, maxAgeMs, 'run not started within 1 h: the run service did not answer'),
    );

  it.each([
    { from: 'unstarted, older than the limit', ageMs: 2 * 3_600_000, to: 'run not started within 1 h: the run service did not answer', scanned: false },
    { from: 'unstarted, younger than the limit', ageMs: 60_000, to: null, scanned: true },
  ])('$from → start_error $to', async ({ ageMs, to, scanned }) => {
    const ctx = h.tenant();
    const id = await unstarted(ctx, ageMs);
    expect(await giveUp(3_600_000)).toBeGreaterThanOrEqual(to ? 1 : 0);
    expect((await state(id)).start_error).toBe(to);
    expect(await inReconcilerScan(id)).toBe(scanned);
  });

  it('leaves old deliveries that started, or failed for good, as they are', async () => {
    const ctx = h.tenant();
    const [started, refused] = [await unstarted(ctx, 2 * 3_600_000), await unstarted(ctx, 2 * 3_600_000)];
    await receivingRepository.recordStarts(h.tenantDb, ctx, [
      { id: started, error: null },
      { id: refused, error: 'run not started: workflow not found' },
    ]);
    await giveUp(3_600_000);
    expect(await state(started)).toMatchObject({ started_at: expect.any(Date), start_error: null });
    expect((await state(refused)).start_error).toBe('run not started: workflow not found');
  });
});
