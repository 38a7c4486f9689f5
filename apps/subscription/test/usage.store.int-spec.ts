import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { TenantContext } from '@platform/db';
import type { Bus, UsageFact, UsageMetric } from '@platform/messaging';
import { storeHarness, type StoreHarness } from '@platform/testing';
import { SubscriptionConfig } from '../src/config/subscription.config.js';
import { BillingService } from '../src/invoices/billing.service.js';
import type { InvoiceRow } from '../src/invoices/invoice.record.js';
import { invoicesRepository } from '../src/invoices/invoices.repository.js';
import { LimitsService } from '../src/limits/limits.service.js';
import { GAUGE_METRICS } from '../src/plans/plan.record.js';
import { periodAt } from '../src/subscriptions/periods.js';
import type { SubscriptionWithPlan } from '../src/subscriptions/subscription.record.js';
import { subscriptionsRepository } from '../src/subscriptions/subscriptions.repository.js';
import { crossedQuotas } from '../src/usage/quota-crossing.js';
import { usageRepository, type AggregateResult } from '../src/usage/usage.repository.js';

/**
 * The subscription service's state in PostgreSQL: usage aggregated idempotently (usage_events,
 * usage_daily, quota_totals) and read back as totals and limits, the billing pass closing a period
 * into an invoice, and the trigger that keeps an issued invoice from ever changing. The real
 * repositories and services, as the application role (usage, limits) and the system role (billing).
 */
let h: StoreHarness;
const config = new SubscriptionConfig();
const published: { subject: string; data: unknown }[] = [];
const bus = { emit: (subject: string, data: unknown) => void published.push({ subject, data }) } as unknown as Bus;
let limits: LimitsService;
let billing: BillingService;

beforeAll(async () => {
  h = await storeHarness(['subscription'], 'subscription_store');
  limits = new LimitsService(h.tenantDb, bus, config);
  billing = new BillingService(h.systemDb, limits, config);
}, 60_000);

afterAll(async () => {
  await h?.close();
});

const fact = (metric: UsageMetric, quantity: number, overrides: Partial<UsageFact> = {}): UsageFact => ({
  eventId: randomUUID(),
  metric,
  quantity,
  occurredAt: new Date().toISOString(),
  ...overrides,
});

/** What the usage worker does for one batch: the subscription held shared, the facts added. */
function aggregate(ctx: TenantContext, facts: UsageFact[]): Promise<AggregateResult> {
  return h.tenantDb.run(ctx, async (m) => {
    const s = await subscriptionsRepository.ensure(m, ctx.tenantId, config.SUBSCRIPTION_DEFAULT_PLAN, periodAt(new Date()), 'share');
    return usageRepository.aggregate(m, { ...ctx, scopeId: ctx.scopeId ?? null }, facts, s.period_start);
  });
}

async function daily(tenantId: string): Promise<{ metric: string; billable: boolean; quantity: string; scope_id: string | null; day: string }[]> {
  return (
    await h.admin.query(
      `select metric, billable, quantity, scope_id, to_char(day, 'YYYY-MM-DD') as day from subscription.usage_daily where tenant_id = $1 order by metric, billable, scope_id`,
      [tenantId],
    )
  ).rows as { metric: string; billable: boolean; quantity: string; scope_id: string | null; day: string }[];
}

async function quota(tenantId: string): Promise<Record<string, string>> {
  const { rows } = await h.admin.query<{ metric: string; quantity: string }>(`select metric, quantity from subscription.quota_totals where tenant_id = $1`, [
    tenantId,
  ]);
  return Object.fromEntries(rows.map((r) => [r.metric, r.quantity]));
}

const today = () => new Date().toISOString().slice(0, 10);

describe('usage aggregation: what was counted × a batch of facts → what is added, and where', () => {
  it('a new live fact → counted, one billable daily row, the period total', async () => {
    const ctx = h.tenant();
    const f = fact('runs', 3);
    const result = await aggregate(ctx, [f]);
    expect([...result.counted]).toEqual([f.eventId]);
    expect(result.totals).toEqual(new Map([['runs', 3]]));
    expect(await daily(ctx.tenantId)).toEqual([{ metric: 'runs', billable: true, quantity: '3', scope_id: null, day: today() }]);
    expect(await quota(ctx.tenantId)).toEqual({ runs: '3' });
    expect((await h.admin.query(`select count(*)::int as n from subscription.usage_events where tenant_id = $1`, [ctx.tenantId])).rows).toEqual([{ n: 1 }]);
  });

  it.each([
    { case: 'the same fact again (a replay)', second: (f: UsageFact) => [f], counted: 0, runs: '3' },
    { case: 'the same fact, its id in capitals', second: (f: UsageFact) => [{ ...f, eventId: f.eventId.toUpperCase() }], counted: 0, runs: '3' },
    { case: 'the fact and a new one', second: (f: UsageFact) => [f, fact('runs', 2)], counted: 1, runs: '5' },
    { case: 'a negative fact (a quota freed)', second: () => [fact('runs', -1)], counted: 1, runs: '2' },
  ])('3 runs counted, then $case → $counted counted, runs $runs', async ({ second, counted, runs }) => {
    const ctx = h.tenant();
    const f = fact('runs', 3);
    await aggregate(ctx, [f]);
    const result = await aggregate(ctx, second(f));
    expect(result.counted.size).toBe(counted);
    expect(await quota(ctx.tenantId)).toEqual({ runs });
    expect((await daily(ctx.tenantId)).map((d) => d.quantity)).toEqual([runs]);
  });

  it('the same fact twice in one batch (the worker removes such repeats first) → counted once', async () => {
    const ctx = h.tenant();
    const f = fact('runs', 3);
    const result = await aggregate(ctx, [f, f]);
    expect([...result.counted]).toEqual([f.eventId]);
    expect(await quota(ctx.tenantId)).toEqual({ runs: '3' });
  });

  it('a sandbox fact (test key) → a daily row that is not billable, no period total', async () => {
    const ctx = h.tenant();
    const result = await aggregate(ctx, [fact('runs', 4, { keyMode: 'test' })]);
    expect(result.counted.size).toBe(1);
    expect(result.totals.size).toBe(0);
    expect(await daily(ctx.tenantId)).toEqual([expect.objectContaining({ metric: 'runs', billable: false, quantity: '4' })]);
    expect(await quota(ctx.tenantId)).toEqual({});
  });

  it('facts of one day and metric → summed into one daily row; another metric → its own', async () => {
    const ctx = h.tenant();
    await aggregate(ctx, [fact('runs', 1), fact('runs', 2), fact('notifications', 5)]);
    expect((await daily(ctx.tenantId)).map((d) => [d.metric, d.quantity])).toEqual([
      ['notifications', '5'],
      ['runs', '3'],
    ]);
  });

  it('a fact that happened before the period began → counted on the period’s first day', async () => {
    const ctx = h.tenant();
    await aggregate(ctx, [fact('runs', 1, { occurredAt: new Date(Date.UTC(2020, 0, 15)).toISOString() })]);
    expect((await daily(ctx.tenantId))[0].day).toBe(periodAt(new Date()).start.toISOString().slice(0, 10));
  });

  it('a customer’s facts → rows of its scope; the customer reads only its own, the tenant all', async () => {
    const ctx = h.tenant();
    const customer = { ...ctx, scopeId: randomUUID() };
    await aggregate(ctx, [fact('runs', 10)]);
    await aggregate(customer, [fact('runs', 2)]);
    expect((await daily(ctx.tenantId)).map((d) => [d.scope_id, d.quantity])).toEqual([
      [customer.scopeId, '2'],
      [null, '10'],
    ]);
    expect(await quota(ctx.tenantId)).toEqual({ runs: '12' });
    const periodStart = periodAt(new Date()).start;
    const read = (c: TenantContext, customerId?: string) => h.tenantDb.run(c, (m) => usageRepository.totals(m, { periodStart, customerId }, GAUGE_METRICS));
    expect(await read(customer)).toEqual([{ metric: 'runs', billable: 2, sandbox: 0 }]);
    expect(await read(ctx)).toEqual([{ metric: 'runs', billable: 12, sandbox: 0 }]);
    expect(await read(ctx, customer.scopeId)).toEqual([{ metric: 'runs', billable: 2, sandbox: 0 }]);
  });

  it('another tenant sending the same event id → counted for that tenant alone; neither sees the other’s usage', async () => {
    const [a, b] = [h.tenant(), h.tenant()];
    const f = fact('runs', 7);
    await aggregate(a, [f]);
    expect((await aggregate(b, [f])).counted.size).toBe(1);
    expect(await quota(a.tenantId)).toEqual({ runs: '7' });
    expect(await quota(b.tenantId)).toEqual({ runs: '7' });
    const periodStart = periodAt(new Date()).start;
    await aggregate(b, [fact('notifications', 1)]);
    expect(await h.tenantDb.run(a, (m) => usageRepository.totals(m, { periodStart }, GAUGE_METRICS))).toEqual([{ metric: 'runs', billable: 7, sandbox: 0 }]);
  });
});

describe('limits: the period’s totals × the plan (free: 1,000 runs) → exhausted quotas, and whether the gateways are told', () => {
  it.each([
    { before: 0, add: 999, live: true, exhausted: false, crossed: false },
    { before: 999, add: 1, live: true, exhausted: true, crossed: true },
    { before: 1000, add: 5, live: true, exhausted: true, crossed: false },
    { before: 1000, add: -1, live: true, exhausted: false, crossed: true },
    { before: 999, add: 5, live: false, exhausted: false, crossed: false },
  ])('$before runs, $add more (live: $live) → exhausted: $exhausted, crossed: $crossed', async ({ before, add, live, exhausted, crossed }) => {
    const ctx = h.tenant();
    if (before) await aggregate(ctx, [fact('runs', before)]);
    const facts = [fact('runs', add, live ? {} : { keyMode: 'test' })];
    const result = await aggregate(ctx, facts);
    const s = await h.tenantDb.run(ctx, (m) => subscriptionsRepository.ensure(m, ctx.tenantId, 'free', periodAt(new Date())));
    expect(crossedQuotas(s.plan.quotas, facts, result)).toBe(crossed);
    const computed = await limits.compute(ctx.tenantId);
    expect(computed).toMatchObject({ tenantId: ctx.tenantId, plan: 'free' });
    expect(computed.exhausted).toEqual(exhausted ? [{ metric: 'runs', limit: 1000, until: s.period_end.toISOString() }] : []);
  });
});

async function invoices(tenantId: string): Promise<InvoiceRow[]> {
  return (await h.admin.query<InvoiceRow>(`select * from subscription.invoices where tenant_id = $1`, [tenantId])).rows;
}

describe('billing: a subscription’s period × the billing pass → the invoice and the next period', () => {
  it('a period not yet ended → nothing issued, the period unchanged', async () => {
    const ctx = h.tenant();
    await aggregate(ctx, [fact('runs', 1)]);
    expect(await billing.close(ctx.tenantId)).toBeUndefined();
    expect(await invoices(ctx.tenantId)).toEqual([]);
  });

  it('an ended period → one invoice of its billable totals, the next period opened with gauges carried, the gateways told; a second pass issues nothing', async () => {
    const ctx = h.tenant();
    await aggregate(ctx, [fact('runs', 40), fact('storage_bytes', 1000), fact('runs', 500, { keyMode: 'test' })]);
    const ended = await billing.endPeriodNow(ctx.tenantId);
    published.length = 0;
    const id = await billing.close(ctx.tenantId);
    expect(id).toEqual(expect.any(String));
    const [invoice] = await invoices(ctx.tenantId);
    expect(invoice).toMatchObject({ id, plan_code: 'free', currency: 'USD', status: 'issued', period_start: new Date(ended.period_start), total_minor: '0' });
    expect(invoice.lines.find((l) => l.item === 'runs')).toMatchObject({ used: 40, included: 1000, billed_quantity: 0 });
    const next = (await h.admin.query<{ period_start: Date }>(`select period_start from subscription.subscriptions where tenant_id = $1`, [ctx.tenantId]))
      .rows[0];
    expect(next.period_start).toEqual(new Date(ended.period_end));
    const carried = await h.admin.query(`select metric, quantity from subscription.quota_totals where tenant_id = $1 and period_start = $2`, [
      ctx.tenantId,
      next.period_start,
    ]);
    expect(carried.rows).toEqual([{ metric: 'storage_bytes', quantity: '1000' }]);
    expect(published).toEqual([{ subject: expect.any(String), data: expect.objectContaining({ tenantId: ctx.tenantId, exhausted: [] }) }]);
    expect(await billing.close(ctx.tenantId)).toBeUndefined();
    expect(await invoices(ctx.tenantId)).toHaveLength(1);
  });
});

describe('billing failures: a tenant whose close keeps failing × billing passes → recorded, the others closed, given up after the limit, retried by the operator', () => {
  // A real failure in PostgreSQL: the invoice insert of one tenant is refused by a trigger.
  const failing = randomUUID();
  const others = [randomUUID(), randomUUID()];
  const limited = Object.assign(new SubscriptionConfig(), { SUBSCRIPTION_BILLING_MAX_ATTEMPTS: 2 });
  let pass: BillingService;
  const state = async (tenantId: string) =>
    (
      await h.admin.query<{ billing_attempts: number; billing_error: string | null; billing_failed_at: Date | null }>(
        `select billing_attempts, billing_error, billing_failed_at from subscription.subscriptions where tenant_id = $1`,
        [tenantId],
      )
    ).rows[0];

  beforeAll(async () => {
    pass = new BillingService(h.systemDb, limits, limited);
    await h.admin.query(`create function subscription.test_refuse_invoice() returns trigger language plpgsql as $$
      begin if new.tenant_id = '${failing}' then raise exception 'test: invoice refused'; end if; return new; end $$`);
    await h.admin.query(
      `create trigger test_refuse_invoice before insert on subscription.invoices for each row execute function subscription.test_refuse_invoice()`,
    );
    for (const tenantId of [failing, ...others]) {
      await aggregate({ tenantId, environmentId: randomUUID() }, [fact('runs', 1)]);
      await pass.endPeriodNow(tenantId);
    }
  });

  afterAll(async () => {
    await h.admin.query(`drop trigger if exists test_refuse_invoice on subscription.invoices`);
    await h.admin.query(`drop function if exists subscription.test_refuse_invoice()`);
  });

  it('a pass (in pages of one) → the failing tenant recorded, every other tenant invoiced', async () => {
    const first = await pass.run(1);
    expect(first.failed).toBe(1);
    expect(await state(failing)).toEqual({ billing_attempts: 1, billing_error: 'test: invoice refused', billing_failed_at: expect.any(Date) });
    for (const tenantId of others) expect(await invoices(tenantId)).toHaveLength(1);
    expect(await invoices(failing)).toEqual([]);
  });

  it('the limit of failed passes reached → the passes leave the tenant alone, its failure kept', async () => {
    expect((await pass.run()).failed).toBe(1);
    expect((await state(failing)).billing_attempts).toBe(2);
    expect((await pass.run()).failed).toBe(0);
    expect((await state(failing)).billing_attempts).toBe(2);
  });

  it('the operator retries while it still fails → 409 billing_failed, recorded; once fixed → invoiced, the record cleared', async () => {
    await expect(pass.retry(failing)).rejects.toMatchObject({ code: 'billing_failed', status: 409 });
    expect((await state(failing)).billing_attempts).toBe(1);
    await h.admin.query(`drop trigger test_refuse_invoice on subscription.invoices`);
    const { invoice_id } = await pass.retry(failing);
    expect(invoice_id).toEqual(expect.any(String));
    expect(await invoices(failing)).toHaveLength(1);
    expect(await state(failing)).toEqual({ billing_attempts: 0, billing_error: null, billing_failed_at: null });
    await expect(pass.retry(randomUUID())).rejects.toMatchObject({ code: 'not_found' });
  });
});

describe('subscription.invoices_immutable: an issued invoice × a change → refused, whoever asks', () => {
  let tenantId: string;
  let before: InvoiceRow[];

  beforeAll(async () => {
    tenantId = h.tenant().tenantId;
    await aggregate({ tenantId, environmentId: randomUUID() }, [fact('runs', 1)]);
    await billing.endPeriodNow(tenantId);
    await billing.close(tenantId);
    before = await invoices(tenantId);
    expect(before).toHaveLength(1);
  });

  it.each([
    { change: 'the owner updating its total', sql: `update subscription.invoices set total_minor = 1 where tenant_id = $1` },
    { change: 'the owner updating its status to itself', sql: `update subscription.invoices set status = status where tenant_id = $1` },
    { change: 'the owner deleting it', sql: `delete from subscription.invoices where tenant_id = $1` },
  ])('$change → an issued invoice never changes', async ({ sql }) => {
    await expect(h.admin.query(sql, [tenantId])).rejects.toThrow(/an issued invoice never changes/);
    expect(await invoices(tenantId)).toEqual(before);
  });

  it('the system role (the billing path) updating it → refused', async () => {
    await expect(
      h.systemDb.run('test: change an invoice', (m) => m.query(`update subscription.invoices set lines = '[]' where tenant_id = $1`, [tenantId])),
    ).rejects.toThrow(/an issued invoice never changes|permission denied/);
    expect(await invoices(tenantId)).toEqual(before);
  });

  it('a second invoice for the same period → not written (one per tenant and period)', async () => {
    const [first] = before;
    const subscription = { tenant_id: tenantId, period_start: first.period_start, period_end: first.period_end, plan_code: 'free', plan: { currency: 'USD' } };
    const again = await h.systemDb.run('test: a second invoice', (m) =>
      invoicesRepository.insert(m, subscription as unknown as SubscriptionWithPlan, { lines: [], subtotal_minor: 0, total_minor: 0 }),
    );
    expect(again).toBeUndefined();
    expect(await invoices(tenantId)).toEqual(before);
  });
});
