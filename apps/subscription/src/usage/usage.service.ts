import { Inject, Injectable } from '@nestjs/common';
import { forbidden, type Principal } from '@platform/auth';
import { TenantDb } from '@platform/db';
import { USAGE_METRICS, type TenantRef } from '@platform/messaging';
import { SUBSCRIPTION_CONFIG, type SubscriptionConfig } from '../config/subscription.config.js';
import { GAUGE_METRICS } from '../plans/plan.record.js';
import { periodAt } from '../subscriptions/periods.js';
import { ensureSubscription } from '../subscriptions/index.js';
import type { UsageQueryDto } from './dto/usage-query.dto.js';
import { usageRepository, type DailyTotal } from './usage.repository.js';

export interface MetricUsage {
  metric: string;
  used: number;
  included: number;
  limit: number | null;
  remaining: number | null;
  sandbox_used: number;
}

export interface UsageResponse {
  plan: string;
  period_start: string;
  period_end: string;
  customer_id: string | null;
  metrics: MetricUsage[];
  daily?: { date: string; metric: string; quantity: number }[];
}

/**
 * The current period's usage against the plan. Row-level security confines a customer key (or a
 * key narrowed with X-Scope-Key) to its customer's rows; a tenant caller may narrow to one
 * customer with `customer_id`.
 */
@Injectable()
export class UsageService {
  constructor(
    private readonly db: TenantDb,
    @Inject(SUBSCRIPTION_CONFIG) private readonly config: SubscriptionConfig,
  ) {}

  current(p: Principal, q: UsageQueryDto): Promise<UsageResponse> {
    return this.forTenant({ tenantId: p.tenantId, environmentId: p.environmentId, scopeId: p.scopeId }, q.customer_id, q.granularity === 'day');
  }

  /** Also the answer to `subscription.usage.get` (portal dashboards), in the caller's tenant and scope. */
  forTenant(ctx: TenantRef, requestedCustomer: string | undefined, daily = false): Promise<UsageResponse> {
    if (ctx.scopeId && requestedCustomer && requestedCustomer !== ctx.scopeId) throw forbidden();
    const customerId = requestedCustomer ?? ctx.scopeId ?? undefined;
    return this.db.run(ctx, async (m) => {
      const subscription = await ensureSubscription(m, ctx.tenantId, this.config.SUBSCRIPTION_DEFAULT_PLAN, periodAt(new Date()));
      const filter = { periodStart: subscription.period_start, customerId };
      const totals = new Map((await usageRepository.totals(m, filter, GAUGE_METRICS)).map((t) => [t.metric, t]));
      const metrics = USAGE_METRICS.map((metric): MetricUsage => {
        const terms = subscription.plan.quotas[metric];
        const used = totals.get(metric)?.billable ?? 0;
        const limit = terms?.limit ?? null;
        return {
          metric,
          used,
          included: terms?.included ?? 0,
          limit,
          remaining: limit === null ? null : Math.max(0, limit - used),
          sandbox_used: totals.get(metric)?.sandbox ?? 0,
        };
      });
      const response: UsageResponse = {
        plan: subscription.plan_code,
        period_start: subscription.period_start.toISOString(),
        period_end: subscription.period_end.toISOString(),
        customer_id: customerId ?? null,
        metrics,
      };
      if (daily) response.daily = (await usageRepository.daily(m, filter)).map((d: DailyTotal) => ({ date: d.day, metric: d.metric, quantity: d.quantity }));
      return response;
    });
  }
}
