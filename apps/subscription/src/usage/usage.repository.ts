import type { EntityManager } from 'typeorm';
import type { UsageFact, UsageMetric } from '@platform/messaging';

export interface AggregateResult {
  /** Ids of the facts added now; a fact seen before (a replay) is missing: nothing was added for it. */
  counted: Set<string>;
  /** The tenant's billable total per metric in the period after these facts, for the metrics they changed. */
  totals: Map<string, number>;
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
   * One statement for a batch of facts of one tenant context: their ids are recorded and only the
   * new ones are added, summed per day, metric and billing mode, to the daily sums and (billable
   * ones) to the tenant's period totals. A replayed fact inserts nothing.
   */
  async aggregate(
    m: EntityManager,
    ctx: { tenantId: string; environmentId: string; scopeId: string | null },
    facts: UsageFact[],
    periodStart: Date,
  ): Promise<AggregateResult> {
    const [row] = await m.query<{ counted: string[] | null; totals: { metric: string; quantity: string }[] | null }[]>(
      `with ev as (
         insert into subscription.usage_events (tenant_id, event_id, environment_id, scope_id, metric, quantity, billable, occurred_at)
         select $1, f.event_id, $2, $3, f.metric, f.quantity, f.billable, f.occurred_at
           from unnest($4::uuid[], $5::text[], $6::bigint[], $7::boolean[], $8::timestamptz[]) as f(event_id, metric, quantity, billable, occurred_at)
         on conflict do nothing
         returning event_id, metric, quantity, billable, greatest((occurred_at at time zone 'UTC')::date, ($9::timestamptz at time zone 'UTC')::date) as day),
       daily as (
         insert into subscription.usage_daily (tenant_id, period_start, day, environment_id, scope_id, metric, billable, quantity)
         select $1, $9, day, $2, $3, metric, billable, sum(quantity) from ev group by day, metric, billable
         on conflict on constraint usage_daily_key do update set quantity = subscription.usage_daily.quantity + excluded.quantity
         returning 1),
       total as (
         insert into subscription.quota_totals (tenant_id, period_start, metric, quantity)
         select $1, $9, metric, sum(quantity) from ev where billable group by metric
         on conflict (tenant_id, period_start, metric) do update set quantity = subscription.quota_totals.quantity + excluded.quantity
         returning metric, quantity)
       select (select array_agg(event_id::text) from ev) as counted, (select json_agg(total) from total) as totals, (select count(*) from daily) as daily`,
      [
        ctx.tenantId,
        ctx.environmentId,
        ctx.scopeId,
        facts.map((f) => f.eventId),
        facts.map((f) => f.metric),
        facts.map((f) => f.quantity),
        facts.map((f) => f.keyMode !== 'test'),
        facts.map((f) => f.occurredAt),
        periodStart,
      ],
    );
    return {
      counted: new Set(row.counted ?? []),
      totals: new Map((row.totals ?? []).map((t) => [t.metric, Number(t.quantity)])),
    };
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
