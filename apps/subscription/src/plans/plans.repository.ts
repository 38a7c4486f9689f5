import type { EntityManager } from 'typeorm';
import type { PlanRow } from './plan.record.js';
import type { PlanDefinition } from './seed-plans.js';

/** Plans are platform data (no tenant): read by every tenant, written by the operator's admin command. */
export const plansRepository = {
  list(m: EntityManager): Promise<PlanRow[]> {
    return m.query<PlanRow[]>(`select * from subscription.plans order by base_price_minor, code`);
  },

  /** Adds a plan, or replaces one's terms with `replace`; false when it exists and `replace` is not set. */
  async upsert(m: EntityManager, plan: PlanDefinition, replace: boolean): Promise<boolean> {
    const rows = await m.query<unknown[]>(
      `insert into subscription.plans (code, name, currency, base_price_minor, rate_limits, quotas, notification_limits) values ($1, $2, $3, $4, $5, $6, $7)
       on conflict (code) do ${replace ? 'update set name = excluded.name, currency = excluded.currency, base_price_minor = excluded.base_price_minor, rate_limits = excluded.rate_limits, quotas = excluded.quotas, notification_limits = excluded.notification_limits' : 'nothing'}
       returning code`,
      [
        plan.code,
        plan.name,
        plan.currency,
        plan.base_price_minor,
        JSON.stringify(plan.rate_limits),
        JSON.stringify(plan.quotas),
        plan.notification_limits ? JSON.stringify(plan.notification_limits) : null,
      ],
    );
    return rows.length === 1;
  },
};
