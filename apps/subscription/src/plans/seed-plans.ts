import type { PlanRateLimits, UsageMetric } from '@platform/messaging';
import type { NotificationLimitTerms, QuotaTerms } from './plan.record.js';

export interface PlanDefinition {
  code: string;
  name: string;
  currency: string;
  base_price_minor: number;
  rate_limits: PlanRateLimits;
  quotas: Record<UsageMetric, QuotaTerms>;
  /** Optional in a plan file: without it the notification service's settings apply. */
  notification_limits?: NotificationLimitTerms | null;
}

const GIB = 1024 ** 3;
const capped = (included: number): QuotaTerms => ({ included, limit: included, unit_price_minor: 0, per: 1 });
const billed = (included: number, unit_price_minor: number, per: number, limit: number | null = null): QuotaTerms => ({
  included,
  limit,
  unit_price_minor,
  per,
});

/**
 * The plans every installation starts with (operators add more with `npm run admin:plans -- add`).
 * Free caps every quota; pro and enterprise bill usage beyond what they include. Amounts are in
 * minor units (cents).
 */
export const SEED_PLANS: readonly PlanDefinition[] = [
  {
    code: 'free',
    name: 'Free',
    currency: 'USD',
    base_price_minor: 0,
    rate_limits: { live: 600, test: 1200, user: 600 },
    notification_limits: { per_minute: 600, per_day: 20_000 },
    quotas: {
      runs: capped(1_000),
      ai_tokens: capped(100_000),
      storage_bytes: capped(GIB),
      notifications: capped(1_000),
      active_workflows: capped(10),
      seats: capped(3),
    },
  },
  {
    code: 'pro',
    name: 'Pro',
    currency: 'USD',
    base_price_minor: 4_900,
    rate_limits: { live: 3_000, test: 6_000, user: 3_000 },
    notification_limits: { per_minute: 3_000, per_day: 100_000 },
    quotas: {
      runs: billed(50_000, 50, 1_000),
      ai_tokens: billed(5_000_000, 20, 100_000),
      storage_bytes: billed(50 * GIB, 10, GIB),
      notifications: billed(50_000, 10, 1_000),
      active_workflows: billed(200, 100, 1, 1_000),
      seats: billed(20, 1_500, 1),
    },
  },
  {
    code: 'enterprise',
    name: 'Enterprise',
    currency: 'USD',
    base_price_minor: 99_900,
    rate_limits: { live: 30_000, test: 60_000, user: 30_000 },
    notification_limits: { per_minute: 30_000, per_day: 2_000_000 },
    quotas: {
      runs: billed(1_000_000, 20, 1_000),
      ai_tokens: billed(100_000_000, 10, 100_000),
      storage_bytes: billed(1_024 * GIB, 5, GIB),
      notifications: billed(1_000_000, 5, 1_000),
      active_workflows: billed(10_000, 50, 1),
      seats: billed(200, 1_000, 1),
    },
  },
];
