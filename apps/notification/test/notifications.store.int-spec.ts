import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { TenantContext } from '@platform/db';
import { pendingUsage } from '@platform/service';
import { storeHarness, type StoreHarness } from '@platform/testing';
import type { Attempt } from '../src/notifications/notification.record.js';
import { notificationsRepository, type MeteredSends, type NewNotification } from '../src/notifications/notifications.repository.js';

/**
 * A notification's life in PostgreSQL, through the functions of the NotificationHotPath migration
 * as the repository calls them (application role, row-level security): `accept` stores sends with
 * the usage fact counting those stored, `claim_deliveries` takes the ones owed an attempt under a
 * lease, `record_attempts` writes each attempt and the status it leads to.
 */
let h: StoreHarness;

beforeAll(async () => {
  h = await storeHarness(['notification'], 'notification_store');
}, 60_000);

afterAll(async () => {
  await h?.close();
});

function send(overrides: Partial<NewNotification> = {}): NewNotification {
  return {
    id: randomUUID(),
    channelId: randomUUID(),
    kind: 'slack',
    source: 'api',
    recipients: ['#ops'],
    target: null,
    subject: null,
    template: null,
    content: { text: 'Deploy finished', blocks: [] },
    status: 'queued',
    attempts: [],
    idempotencyKey: null,
    requestHash: null,
    ...overrides,
  };
}

const fact = (ctx: TenantContext, ids: string[]): MeteredSends => ({ ids, usage: pendingUsage(ctx, { metric: 'notifications', quantity: ids.length }) });

const accept = (ctx: TenantContext, list: NewNotification[], usage: MeteredSends[] = []) => notificationsRepository.accept(h.tenantDb, ctx, list, usage);

interface Stored {
  id: string;
  status: string;
  attempt_count: number;
  attempts: Attempt[];
  lease_until: Date | null;
  next_attempt_at: Date | null;
  delivered_at: Date | null;
  idempotency_key: string | null;
}

async function rows(tenantId: string): Promise<Stored[]> {
  return (
    await h.admin.query<Stored>(
      `select id, status, attempt_count, attempts, lease_until, next_attempt_at, delivered_at, idempotency_key from notification.notifications where tenant_id = $1 order by created_at, id`,
      [tenantId],
    )
  ).rows;
}

async function row(id: string): Promise<Stored> {
  return (
    await h.admin.query<Stored>(
      `select id, status, attempt_count, attempts, lease_until, next_attempt_at, delivered_at, idempotency_key from notification.notifications where id = $1`,
      [id],
    )
  ).rows[0];
}

async function outbox(tenantId: string): Promise<{ event_id: string; metric: string; quantity: string }[]> {
  return (await h.admin.query(`select event_id, metric, quantity from notification.usage_outbox where tenant_id = $1`, [tenantId])).rows as {
    event_id: string;
    metric: string;
    quantity: string;
  }[];
}

describe('notification.accept: sends × what is stored already → the answer, the rows and the usage fact', () => {
  it('a new send → stored queued with no attempts, answered, and counted once', async () => {
    const ctx = h.tenant();
    const n = send();
    const usage = fact(ctx, [n.id]);
    expect(await accept(ctx, [n], [usage])).toEqual([{ id: n.id, status: 'queued' }]);
    expect(await rows(ctx.tenantId)).toEqual([expect.objectContaining({ id: n.id, status: 'queued', attempt_count: 0, attempts: [], lease_until: null })]);
    expect(await outbox(ctx.tenantId)).toEqual([{ event_id: usage.usage.fact.eventId, metric: 'notifications', quantity: '1' }]);
  });

  it('a send recorded as rate limited → stored with its attempt counted, not metered when no fact is given', async () => {
    const ctx = h.tenant();
    const limited: Attempt = { attempt: 1, at: new Date().toISOString(), outcome: 'rate_limited', status_code: 429, error: 'sending limit per minute reached' };
    const n = send({ status: 'rate_limited', attempts: [limited], source: 'platform' });
    expect(await accept(ctx, [n])).toEqual([{ id: n.id, status: 'rate_limited' }]);
    expect(await row(n.id)).toMatchObject({ status: 'rate_limited', attempt_count: 1, attempts: [limited] });
    expect(await outbox(ctx.tenantId)).toEqual([]);
  });

  it.each([
    { case: 'its key exists already (an earlier request)', earlier: true, batch: ['k'], stored: 1, counted: null },
    { case: 'its key repeats within the batch', earlier: false, batch: ['k', 'k'], stored: 1, counted: '1' },
    { case: 'one of three has a key that exists already', earlier: true, batch: ['k', null, 'other'], stored: 3, counted: '2' },
  ])('$case → missing from the answer, not stored, not counted', async ({ earlier, batch, stored, counted }) => {
    const ctx = h.tenant();
    const first = send({ idempotencyKey: 'k' });
    if (earlier) await accept(ctx, [first]);
    const list = batch.map((key) => send({ idempotencyKey: key }));
    const usage = fact(
      ctx,
      list.map((n) => n.id),
    );
    const answer = await accept(ctx, list, [usage]);
    const expected = earlier ? list.filter((n) => n.idempotencyKey !== 'k') : [list[0]];
    expect(answer.map((a) => a.id).sort()).toEqual(expected.map((n) => n.id).sort());
    const all = await rows(ctx.tenantId);
    expect(all).toHaveLength(stored);
    expect(all.filter((r) => r.idempotency_key === 'k')).toEqual([expect.objectContaining({ id: earlier ? first.id : list[0].id })]);
    expect((await outbox(ctx.tenantId)).map((o) => o.quantity)).toEqual(counted === null ? [] : [counted]);
  });

  it.each([
    { other: 'another tenant', make: () => h.tenant() },
    { other: 'another environment of the tenant', make: (ctx: TenantContext) => ({ ...ctx, environmentId: randomUUID() }) },
  ])('a key used by $other → stored: keys are per tenant environment, and nothing of the other is seen or changed', async ({ make }) => {
    const ctx = h.tenant();
    const mine = send({ idempotencyKey: 'shared-key' });
    await accept(ctx, [mine]);
    const other = make(ctx);
    const theirs = send({ idempotencyKey: 'shared-key' });
    expect(await accept(other, [theirs])).toEqual([{ id: theirs.id, status: 'queued' }]);
    expect(await h.tenantDb.run(other, (m) => notificationsRepository.byIdempotencyKey(m, 'shared-key'))).toMatchObject({ id: theirs.id });
    expect(await h.tenantDb.run(other, (m) => notificationsRepository.get(m, mine.id))).toBeUndefined();
    expect(await row(mine.id)).toMatchObject({ status: 'queued', attempt_count: 0 });
  });
});

type Arrange = { status: string; lease?: string; next?: string; attempts?: number };

describe('notification.claim_deliveries: from a status × a claim → taken or not, and the row after', () => {
  it.each<{ from: string; state: Arrange; claimed: boolean }>([
    { from: 'queued', state: { status: 'queued' }, claimed: true },
    { from: 'sending under a live lease', state: { status: 'sending', lease: '1 minute' }, claimed: false },
    { from: 'sending under a lease that ran out (its worker died)', state: { status: 'sending', lease: '-1 second', attempts: 1 }, claimed: true },
    { from: 'retrying and due', state: { status: 'retrying', next: '-1 second', attempts: 1 }, claimed: true },
    { from: 'retrying, due within 50 ms', state: { status: 'retrying', next: '20 milliseconds', attempts: 1 }, claimed: true },
    { from: 'retrying, not yet due', state: { status: 'retrying', next: '1 minute', attempts: 1 }, claimed: false },
    { from: 'delivered', state: { status: 'delivered', attempts: 1 }, claimed: false },
    { from: 'failed', state: { status: 'failed', attempts: 3 }, claimed: false },
    { from: 'rate_limited', state: { status: 'rate_limited', attempts: 1 }, claimed: false },
  ])('$from → claimed: $claimed', async ({ state, claimed }) => {
    const ctx = h.tenant();
    const n = send();
    await accept(ctx, [n]);
    await arrange(n.id, state);
    const before = await row(n.id);
    const answer = await notificationsRepository.claim(h.tenantDb, ctx, [n.id], 30_000);
    const after = await row(n.id);
    if (claimed) {
      expect(answer).toEqual([
        expect.objectContaining({ id: n.id, channel_id: n.channelId, kind: 'slack', attempt_count: state.attempts ?? 0, content: n.content }),
      ]);
      expect(after.status).toBe('sending');
      expect(after.lease_until!.getTime()).toBeGreaterThan(Date.now() + 20_000);
      expect(after.attempt_count).toBe(before.attempt_count);
    } else {
      expect(answer).toEqual([]);
      expect(after).toEqual(before);
    }
  });

  it('the same id twice in one claim → taken once', async () => {
    const ctx = h.tenant();
    const n = send();
    await accept(ctx, [n]);
    expect((await notificationsRepository.claim(h.tenantDb, ctx, [n.id, n.id], 30_000)).map((r) => r.id)).toEqual([n.id]);
  });

  it.each([
    { caller: 'another tenant', make: () => h.tenant() },
    { caller: 'another environment of the tenant', make: (ctx: TenantContext) => ({ ...ctx, environmentId: randomUUID() }) },
    { caller: 'a customer scope, for a tenant-wide notification', make: (ctx: TenantContext) => ({ ...ctx, scopeId: randomUUID() }) },
  ])('$caller → nothing claimed, the row untouched', async ({ make }) => {
    const ctx = h.tenant();
    const n = send();
    await accept(ctx, [n]);
    expect(await notificationsRepository.claim(h.tenantDb, make(ctx), [n.id], 30_000)).toEqual([]);
    expect(await row(n.id)).toMatchObject({ status: 'queued', lease_until: null });
  });
});

async function arrange(id: string, s: Arrange): Promise<void> {
  await h.admin.query(
    `update notification.notifications set status = $2, lease_until = now() + $3::interval, next_attempt_at = now() + $4::interval, attempt_count = $5 where id = $1`,
    [id, s.status, s.lease ?? null, s.next ?? null, s.attempts ?? 0],
  );
}

describe('notification.record_attempts: from a claimed notification × an attempt’s outcome → the status and history written', () => {
  const attempt = (outcome: Attempt['outcome'], n: number): Attempt => ({ attempt: n, at: new Date().toISOString(), outcome, status_code: 200, error: null });
  const retryAt = () => new Date(Date.now() + 60_000);

  it.each([
    { outcome: 'delivered', status: 'delivered', next: false, delivered: true },
    { outcome: 'retry', status: 'retrying', next: true, delivered: false },
    { outcome: 'failed', status: 'failed', next: false, delivered: false },
  ] as const)('sending, attempt $outcome → $status (next attempt set: $next, delivered_at set: $delivered)', async ({ outcome, status, next, delivered }) => {
    const ctx = h.tenant();
    const n = send();
    await accept(ctx, [n]);
    await notificationsRepository.claim(h.tenantDb, ctx, [n.id], 30_000);
    const a = attempt(outcome, 1);
    await notificationsRepository.recordAttempts(h.tenantDb, ctx, [{ id: n.id, attempt: a, status, nextAttemptAt: next ? retryAt() : null }]);
    const after = await row(n.id);
    expect(after).toMatchObject({ status, attempt_count: 1, attempts: [a], lease_until: null });
    expect(after.next_attempt_at !== null).toBe(next);
    expect(after.delivered_at !== null).toBe(delivered);
  });

  it('retrying, claimed again and delivered → both attempts in order, the retry time cleared', async () => {
    const ctx = h.tenant();
    const n = send();
    await accept(ctx, [n]);
    await notificationsRepository.claim(h.tenantDb, ctx, [n.id], 30_000);
    const first = attempt('retry', 1);
    await notificationsRepository.recordAttempts(h.tenantDb, ctx, [
      { id: n.id, attempt: first, status: 'retrying', nextAttemptAt: new Date(Date.now() - 1000) },
    ]);
    expect(await notificationsRepository.claim(h.tenantDb, ctx, [n.id], 30_000)).toEqual([expect.objectContaining({ id: n.id, attempt_count: 1 })]);
    const second = attempt('delivered', 2);
    await notificationsRepository.recordAttempts(h.tenantDb, ctx, [{ id: n.id, attempt: second, status: 'delivered', nextAttemptAt: null }]);
    expect(await row(n.id)).toMatchObject({
      status: 'delivered',
      attempt_count: 2,
      attempts: [first, second],
      next_attempt_at: null,
      delivered_at: expect.any(Date),
    });
  });

  it('a batch writes each notification its own outcome', async () => {
    const ctx = h.tenant();
    const [a, b] = [send(), send()];
    await accept(ctx, [a, b]);
    await notificationsRepository.claim(h.tenantDb, ctx, [a.id, b.id], 30_000);
    await notificationsRepository.recordAttempts(h.tenantDb, ctx, [
      { id: a.id, attempt: attempt('delivered', 1), status: 'delivered', nextAttemptAt: null },
      { id: b.id, attempt: attempt('failed', 1), status: 'failed', nextAttemptAt: null },
    ]);
    expect((await rows(ctx.tenantId)).map((r) => [r.id, r.status]).sort()).toEqual(
      [
        [a.id, 'delivered'],
        [b.id, 'failed'],
      ].sort(),
    );
  });

  /** Delivered is final: a worker whose lease ran out and whose record lands late does not cause a resend. */
  it('delivered, a late record of another attempt → still delivered, nothing due; the attempt joins the history', async () => {
    const ctx = h.tenant();
    const n = send();
    await accept(ctx, [n]);
    await notificationsRepository.claim(h.tenantDb, ctx, [n.id], 30_000);
    await notificationsRepository.recordAttempts(h.tenantDb, ctx, [{ id: n.id, attempt: attempt('delivered', 1), status: 'delivered', nextAttemptAt: null }]);
    await notificationsRepository.recordAttempts(h.tenantDb, ctx, [{ id: n.id, attempt: attempt('retry', 1), status: 'retrying', nextAttemptAt: retryAt() }]);
    expect(await row(n.id)).toMatchObject({ status: 'delivered', attempt_count: 2, next_attempt_at: null, delivered_at: expect.any(Date) });
  });

  it.each([
    { caller: 'another tenant', make: () => h.tenant() },
    { caller: 'a customer scope, for a tenant-wide notification', make: (ctx: TenantContext) => ({ ...ctx, scopeId: randomUUID() }) },
  ])('$caller recording an attempt → nothing written', async ({ make }) => {
    const ctx = h.tenant();
    const n = send();
    await accept(ctx, [n]);
    await notificationsRepository.recordAttempts(h.tenantDb, make(ctx), [{ id: n.id, attempt: attempt('failed', 1), status: 'failed', nextAttemptAt: null }]);
    expect(await row(n.id)).toMatchObject({ status: 'queued', attempt_count: 0, attempts: [] });
  });
});

describe('the reconciler’s re-queues: counted, reset by an attempt, and a give-up that fails the notification with its reason', () => {
  const scan = async (id: string) => {
    await h.admin.query(`update notification.notifications set updated_at = now() - interval '1 minute' where id = $1`, [id]);
    return (await h.systemDb.run('test: scan', (m) => notificationsRepository.stale(m, 1_000, 10_000))).find((s) => s.id === id);
  };

  it('two re-queues count 2, an attempt starts the count again, a give-up fails it (not one with a newer attempt)', async () => {
    const ctx = h.tenant();
    const n = send();
    await accept(ctx, [n]);
    const first = await scan(n.id);
    expect(first?.requeues).toBe(0);
    await h.systemDb.run('test: re-queued', (m) => notificationsRepository.touch(m, [first!]));
    await h.systemDb.run('test: re-queued', (m) => notificationsRepository.touch(m, [first!]));
    expect((await scan(n.id))?.requeues).toBe(2);

    await notificationsRepository.claim(h.tenantDb, ctx, [n.id], 30_000);
    const retry: Attempt = { attempt: 1, at: new Date().toISOString(), outcome: 'retry', status_code: 503, error: null };
    await notificationsRepository.recordAttempts(h.tenantDb, ctx, [
      { id: n.id, attempt: retry, status: 'retrying', nextAttemptAt: new Date(Date.now() - 60_000) },
    ]);
    const afterAttempt = await scan(n.id);
    expect(afterAttempt).toMatchObject({ requeues: 0, attempt_count: 1 });

    // Seen before the attempt: a give-up on that stale view changes nothing.
    await h.systemDb.run('test: give up', (m) => notificationsRepository.giveUp(m, [first!], 'stale view'));
    expect((await row(n.id)).status).toBe('retrying');
    await h.systemDb.run('test: give up', (m) => notificationsRepository.giveUp(m, [afterAttempt!], 'Delivery made no progress'));
    const failed = await row(n.id);
    expect(failed).toMatchObject({ status: 'failed', next_attempt_at: null, lease_until: null });
    expect(failed.attempts.at(-1)).toMatchObject({ outcome: 'failed', error: 'Delivery made no progress', status_code: null });
    expect(await scan(n.id)).toBeUndefined();
  });
});
