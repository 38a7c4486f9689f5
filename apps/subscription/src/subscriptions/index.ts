import type { EntityManager } from 'typeorm';
import type { Period } from './periods.js';
import type { SubscriptionWithPlan } from './subscription.record.js';
import { subscriptionsRepository } from './subscriptions.repository.js';

// What limits/ and usage/ use of subscriptions inside their own transaction: the repository stays
// private to this folder (scripts/check-feature-deps.js).

export { LimitsPublisher } from './limits-publisher.js';
export { periodAt } from './periods.js';
export { TENANT_WIDE_ENVIRONMENT, tenantWide, type SubscriptionWithPlan } from './subscription.record.js';

/** The tenant's subscription, made on the default plan when it has none yet. `share` holds off a period change until the caller commits. */
export function ensureSubscription(
  m: EntityManager,
  tenantId: string,
  defaultPlan: string,
  period: Period,
  lock: 'share' | 'none' = 'none',
): Promise<SubscriptionWithPlan> {
  return subscriptionsRepository.ensure(m, tenantId, defaultPlan, period, lock);
}

/** The billable totals of a period (tenant-wide). */
export function quotaTotals(m: EntityManager, periodStart: Date): Promise<Map<string, number>> {
  return subscriptionsRepository.quotaTotals(m, periodStart);
}
