import type { EntityManager } from 'typeorm';
import type { UsageFact, UsageMetric } from '@platform/messaging';

export interface AggregateResult {
  /** False for a fact seen before (a replay): nothing was added. */
  counted: boolean;
  /** The tenant's billable total of the metric in the period after this fact; null when the fact is not billable or was a replay. */
  total: number | null;
}

export interface UsageFilter {
  periodStart: Date;
  customerId?: string;
}

export interface MetricTotals {
  metric: UsageMetric;
  billable: number;
  sandbox: number;
}

export interface DailyTotal {
  day: string;
  metric: UsageMetric;
  quantity: number;
}

/** Every query on usage; managers come from TenantDb (RLS: a customer key sees only its customer's rows). */
export const usageRepository = {
  /**
   * One statement: the fact's id is recorded and, only if it is new, its quantity is added to the
   * daily sums and (when billable) to the tenant's period total. A replay inserts nothing.
   */
  async aggregate(
    m: EntityManager,
    ctx: { tenantId: string; environmentId: string; scopeId: string | null },
    fact: UsageFact,
    periodStart: Date,
  ): Promise<AggregateResult> {
    const billable = fact.keyMode !== 'test';
    const [row] = await m.query<{ counted: number; total: string | null }[]>(
      `with ev as (
         insert into subscription.usage_events (tenant_id, event_id, environment_id, scope_id, metric, quantity, billable, occurred_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8) on conflict do nothing returning tenant_id),
       daily as (
         insert into subscription.usage_daily (tenant_id, period_start, day, environment_id, scope_id, metric, billable, quantity)
         select $1, $9, greatest(($8::timestamptz at time zone 'UTC')::date, ($9::timestamptz at time zone 'UTC')::date), $3, $4, $5, $7, $6 from ev
         on conflict on constraint usage_daily_key do update set quantity = subscription.usage_daily.quantity + excluded.quantity
         returning 1),
       total as (
         insert into subscription.quota_totals (tenant_id, period_start, metric, quantity)
         select $1, $9, $5, $6 from ev where $7
         on conflict (tenant_id, period_start, metric) do update set quantity = subscription.quota_totals.quantity + excluded.quantity
         returning quantity)
       select (select count(*) from ev)::int as counted, (select quantity from total) as total, (select count(*) from daily) as daily`,
      [ctx.tenantId, fact.eventId, ctx.environmentId, ctx.scopeId, fact.metric, fact.quantity, billable, fact.occurredAt, periodStart],
    );
    return { counted: row.counted === 1, total: row.total === null ? null : Number(row.total) };
  },

  /**
   * Per metric, billable and sandbox totals: counters within the period, gauges (`gauges`) as the
   * level reached, i.e. every period up to this one.
   */
  async totals(m: EntityManager, filter: UsageFilter, gauges: readonly UsageMetric[]): Promise<MetricTotals[]> {
    const rows = await m.query<{ metric: UsageMetric; billable: string; sandbox: string }[]>(
      `select metric, coalesce(sum(quantity) filter (where billable), 0) as billable, coalesce(sum(quantity) filter (where not billable), 0) as sandbox
         from subscription.usage_daily
        where (period_start = $1 or (metric = any($2) and period_start < $1)) and ($3::uuid is null or scope_id = $3)
        group by metric`,
      [filter.periodStart, gauges, filter.customerId ?? null],
    );
    return rows.map((r) => ({ metric: r.metric, billable: Number(r.billable), sandbox: Number(r.sandbox) }));
  },

  /** Billable quantities per day of the period (changes, for gauges). */
  async daily(m: EntityManager, filter: UsageFilter): Promise<DailyTotal[]> {
    const rows = await m.query<{ day: string; metric: UsageMetric; quantity: string }[]>(
      `select to_char(day, 'YYYY-MM-DD') as day, metric, sum(quantity) as quantity
         from subscription.usage_daily
        where period_start = $1 and billable and ($2::uuid is null or scope_id = $2)
        group by day, metric order by day, metric`,
      [filter.periodStart, filter.customerId ?? null],
    );
    return rows.map((r) => ({ day: r.day, metric: r.metric, quantity: Number(r.quantity) }));
  },
};
