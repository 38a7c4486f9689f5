import { Inject, Injectable, Logger } from '@nestjs/common';
import { TenantDb } from '@platform/db';
import { Bus, SubscriptionSubjects, messageContext, type ExhaustedQuota, type TenantLimits, type UsageMetric } from '@platform/messaging';
import { SUBSCRIPTION_CONFIG, type SubscriptionConfig } from '../config/subscription.config.js';
import { LimitsPublisher, ensureSubscription, periodAt, quotaTotals, tenantWide, type SubscriptionWithPlan } from '../subscriptions/index.js';

/**
 * What the gateway enforces for a tenant: its plan's per-minute limits and the quotas of the
 * current period that are used up. Asked once per tenant by each gateway process, then pushed to
 * all of them (`subscription.limits.changed`) whenever it changes: a plan change, a quota reached
 * or freed, a new period.
 */
@Injectable()
export class LimitsService implements LimitsPublisher {
  private readonly logger = new Logger(LimitsService.name);

  constructor(
    private readonly db: TenantDb,
    private readonly bus: Bus,
    @Inject(SUBSCRIPTION_CONFIG) private readonly config: SubscriptionConfig,
  ) {}

  async compute(tenantId: string): Promise<TenantLimits> {
    return this.db.run(tenantWide(tenantId), async (m) => {
      const subscription = await ensureSubscription(m, tenantId, this.config.SUBSCRIPTION_DEFAULT_PLAN, periodAt(new Date()));
      return limitsOf(subscription, await quotaTotals(m, subscription.period_start));
    });
  }

  /** Tells every gateway; a lost event is repaired by the gateways' periodic refresh. */
  async publish(tenantId: string): Promise<void> {
    try {
      const limits = await this.compute(tenantId);
      this.bus.emit(SubscriptionSubjects.limitsChanged, limits, messageContext(tenantWide(tenantId)));
    } catch (error) {
      this.logger.warn(`limits of tenant ${tenantId} not published (the gateways' refresh will catch up): ${String(error)}`);
    }
  }
}

export function limitsOf(subscription: SubscriptionWithPlan, totals: Map<string, number>): TenantLimits {
  const until = subscription.period_end.toISOString();
  const notification = subscription.plan.notification_limits;
  const exhausted: ExhaustedQuota[] = [];
  for (const [metric, terms] of Object.entries(subscription.plan.quotas) as [UsageMetric, { limit: number | null }][]) {
    if (terms.limit !== null && (totals.get(metric) ?? 0) >= terms.limit) exhausted.push({ metric, limit: terms.limit, until });
  }
  return {
    tenantId: subscription.tenant_id,
    plan: subscription.plan_code,
    rateLimits: subscription.plan.rate_limits,
    notificationLimits: notification ? { perMinute: notification.per_minute, perDay: notification.per_day } : null,
    exhausted,
    computedAt: new Date().toISOString(),
  };
}
