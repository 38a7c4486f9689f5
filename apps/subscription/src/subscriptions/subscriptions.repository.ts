import type { EntityManager } from 'typeorm';
import { newId } from '@platform/common';
import type { PlanRow } from '../plans/plan.record.js';
import type { Period } from './periods.js';
import type { PlanChangeRow, SubscriptionRow, SubscriptionWithPlan } from './subscription.record.js';

const SELECT = `select s.*, to_jsonb(p) as plan from subscription.subscriptions s join subscription.plans p on p.code = s.plan_code`;

/** Every query on subscription.subscriptions and plan_changes; managers come from TenantDb (RLS) unless named. */
export const subscriptionsRepository = {
  /** The tenant's subscription, made on the default plan when it has none yet. `share` holds off a period change until the caller commits. */
  async ensure(m: EntityManager, tenantId: string, defaultPlan: string, period: Period, lock: 'share' | 'none' = 'none'): Promise<SubscriptionWithPlan> {
    const read = () => m.query<SubscriptionWithPlan[]>(`${SELECT}${lock === 'share' ? ' for share of s' : ''}`);
    let [row] = await read();
    if (row) return row;
    await m.query(
      `insert into subscription.subscriptions (tenant_id, id, plan_code, status, period_start, period_end) values ($1, $2, $3, 'active', $4, $5)
       on conflict (tenant_id) do nothing`,
      [tenantId, newId(), defaultPlan, period.start, period.end],
    );
    [row] = await read();
    return row;
  },

  async lockForChange(m: EntityManager): Promise<SubscriptionRow | undefined> {
    const [row] = await m.query<SubscriptionRow[]>(`select * from subscription.subscriptions for update`);
    return row;
  },

  async changePlan(m: EntityManager, tenantId: string, from: string, to: string, actor: string | null): Promise<void> {
    await m.query(`update subscription.subscriptions set plan_code = $1, updated_at = now()`, [to]);
    await m.query(`insert into subscription.plan_changes (tenant_id, id, from_plan, to_plan, actor) values ($1, $2, $3, $4, $5)`, [
      tenantId,
      newId(),
      from,
      to,
      actor,
    ]);
  },

  changes(m: EntityManager, beforeId: string | undefined, limit: number): Promise<PlanChangeRow[]> {
    return m.query<PlanChangeRow[]>(`select * from subscription.plan_changes where ($1::uuid is null or id < $1) order by id desc limit $2`, [
      beforeId ?? null,
      limit + 1,
    ]);
  },

  async plan(m: EntityManager, code: string): Promise<PlanRow | undefined> {
    const [row] = await m.query<PlanRow[]>(`select * from subscription.plans where code = $1`, [code]);
    return row;
  },

  /** The billable totals of a period (tenant-wide). */
  async quotaTotals(m: EntityManager, periodStart: Date): Promise<Map<string, number>> {
    const rows = await m.query<{ metric: string; quantity: string }[]>(`select metric, quantity from subscription.quota_totals where period_start = $1`, [
      periodStart,
    ]);
    return new Map(rows.map((r) => [r.metric, Number(r.quantity)]));
  },
};
