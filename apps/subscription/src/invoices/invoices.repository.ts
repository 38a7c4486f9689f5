import type { EntityManager } from 'typeorm';
import { newId } from '@platform/common';
import type { UsageMetric } from '@platform/messaging';
import type { SubscriptionWithPlan } from '../subscriptions/subscription.record.js';
import type { Period } from '../subscriptions/periods.js';
import type { InvoiceTotals } from './invoice-lines.js';
import type { InvoiceRow } from './invoice.record.js';

/** A subscription whose period has ended, as the billing pass pages through them. */
export interface DueSubscription {
  tenant_id: string;
  /** As PostgreSQL writes it: a Date would lose the microseconds, and the page would take the row again. */
  period_end: string;
}

/** Invoices: reads through TenantDb (RLS); the billing pass's writes on the system path, each naming its tenant. */
export const invoicesRepository = {
  list(m: EntityManager, beforeId: string | undefined, limit: number): Promise<InvoiceRow[]> {
    return m.query<InvoiceRow[]>(`select * from subscription.invoices where ($1::uuid is null or id < $1) order by id desc limit $2`, [
      beforeId ?? null,
      limit + 1,
    ]);
  },

  async get(m: EntityManager, id: string): Promise<InvoiceRow | undefined> {
    const [row] = await m.query<InvoiceRow[]>(`select * from subscription.invoices where id = $1`, [id]);
    return row;
  },

  /**
   * System path: tenants whose period has ended, oldest first, after `after` (the last one a pass
   * saw, so a tenant whose close failed is not taken twice in one pass), leaving out those whose
   * close has failed `maxAttempts` passes in a row.
   */
  async due(m: EntityManager, limit: number, maxAttempts: number, after?: DueSubscription): Promise<DueSubscription[]> {
    return await m.query<DueSubscription[]>(
      `select tenant_id, period_end::text as period_end from subscription.subscriptions
        where period_end <= now() and billing_attempts < $2
          and ($3::timestamptz is null or (period_end, tenant_id) > ($3, $4::uuid))
        order by period_end, tenant_id limit $1`,
      [limit, maxAttempts, after?.period_end ?? null, after?.tenant_id ?? null],
    );
  },

  /** System path: one more failed close of the tenant's period, with its error; the count so far. */
  async recordBillingFailure(m: EntityManager, tenantId: string, error: string): Promise<number> {
    const [[row]] = await m.query<[{ billing_attempts: number }[], number]>(
      `update subscription.subscriptions set billing_attempts = billing_attempts + 1, billing_error = left($2, 1000), billing_failed_at = now()
        where tenant_id = $1 returning billing_attempts`,
      [tenantId, error],
    );
    return row?.billing_attempts ?? 0;
  },

  /** System path: the operator's retry: the pass takes the tenant again. False when it has no subscription. */
  async clearBillingFailures(m: EntityManager, tenantId: string): Promise<boolean> {
    const [, count] = await m.query<[unknown[], number]>(`update subscription.subscriptions set billing_attempts = 0 where tenant_id = $1`, [tenantId]);
    return count > 0;
  },

  /** System path: the tenant's subscription if its period has ended, locked until the period is closed (a second replica waits, then finds it open). */
  async lockEnded(m: EntityManager, tenantId: string): Promise<SubscriptionWithPlan | undefined> {
    const [row] = await m.query<SubscriptionWithPlan[]>(
      `select s.*, to_jsonb(p) as plan from subscription.subscriptions s join subscription.plans p on p.code = s.plan_code
        where s.tenant_id = $1 and s.period_end <= now() for update of s`,
      [tenantId],
    );
    return row;
  },

  /** System path: the period's billable totals per metric (gauges: the level reached). */
  async billableTotals(m: EntityManager, tenantId: string, periodStart: Date, gauges: readonly UsageMetric[]): Promise<Map<string, number>> {
    const rows = await m.query<{ metric: string; quantity: string }[]>(
      `select metric, sum(quantity) as quantity from subscription.usage_daily
        where tenant_id = $1 and billable and (period_start = $2 or (metric = any($3) and period_start < $2)) group by metric`,
      [tenantId, periodStart, gauges],
    );
    return new Map(rows.map((r) => [r.metric, Number(r.quantity)]));
  },

  /** System path: the invoice, unless the period has one already (the unique key); its id when written. */
  async insert(m: EntityManager, s: SubscriptionWithPlan, totals: InvoiceTotals): Promise<string | undefined> {
    const rows = await m.query<{ id: string }[]>(
      `insert into subscription.invoices (tenant_id, id, period_start, period_end, plan_code, currency, lines, subtotal_minor, total_minor, status)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'issued') on conflict (tenant_id, period_start) do nothing returning id`,
      [
        s.tenant_id,
        newId(),
        s.period_start,
        s.period_end,
        s.plan_code,
        s.plan.currency,
        JSON.stringify(totals.lines),
        totals.subtotal_minor,
        totals.total_minor,
      ],
    );
    return rows[0]?.id;
  },

  /** System path: the next period; gauges (what is stored, active) carry their level into it. */
  async openPeriod(m: EntityManager, s: SubscriptionWithPlan, next: Period, gauges: readonly UsageMetric[]): Promise<void> {
    await m.query(
      `update subscription.subscriptions set period_start = $2, period_end = $3, updated_at = now(),
        billing_attempts = 0, billing_error = null, billing_failed_at = null where tenant_id = $1`,
      [s.tenant_id, next.start, next.end],
    );
    await m.query(
      `insert into subscription.quota_totals (tenant_id, period_start, metric, quantity)
       select tenant_id, $3, metric, quantity from subscription.quota_totals where tenant_id = $1 and period_start = $2 and metric = any($4)
       on conflict do nothing`,
      [s.tenant_id, s.period_start, next.start, gauges],
    );
  },

  /** System path: the operator's (or a test's) early end of the current period: now. */
  async endPeriodNow(m: EntityManager, tenantId: string): Promise<{ period_start: Date; period_end: Date } | undefined> {
    // An UPDATE answers [rows, count] through TypeORM.
    const [[row]] = await m.query<[{ period_start: Date; period_end: Date }[], number]>(
      `update subscription.subscriptions set period_end = greatest(now(), period_start + interval '1 millisecond'), updated_at = now()
        where tenant_id = $1 and period_end > now() returning period_start, period_end`,
      [tenantId],
    );
    return row;
  },
};
