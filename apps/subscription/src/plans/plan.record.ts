import { USAGE_METRICS, type PlanRateLimits, type UsageMetric } from '@platform/messaging';

/** One metric's terms in a plan: what the base price includes, the hard cap, and the price beyond the included amount. */
export interface QuotaTerms {
  included: number;
  /** Hard cap per period (live keys are refused past it); null: no cap, usage beyond `included` is billed. */
  limit: number | null;
  /** Price in minor units of the plan's currency for each `per` units beyond `included`. */
  unit_price_minor: number;
  per: number;
}

/** Notifications one tenant environment may send per minute and per UTC day (stored as the plan's `notification_limits`). */
export interface NotificationLimitTerms {
  per_minute: number;
  per_day: number;
}

export interface PlanRow {
  code: string;
  name: string;
  currency: string;
  base_price_minor: string | number;
  rate_limits: PlanRateLimits;
  quotas: Record<UsageMetric, QuotaTerms>;
  /** Null for a plan that sets none: the notification service's settings apply. */
  notification_limits: NotificationLimitTerms | null;
  created_at: Date;
}

export interface PlanResponse {
  code: string;
  name: string;
  currency: string;
  base_price_minor: number;
  rate_limits: { live_per_minute: number; test_per_minute: number; user_per_minute: number };
  quotas: Record<UsageMetric, QuotaTerms>;
  notification_limits: NotificationLimitTerms | null;
}

export function toPlanResponse(row: PlanRow): PlanResponse {
  return {
    code: row.code,
    name: row.name,
    currency: row.currency,
    base_price_minor: Number(row.base_price_minor),
    rate_limits: { live_per_minute: row.rate_limits.live, test_per_minute: row.rate_limits.test, user_per_minute: row.rate_limits.user },
    quotas: row.quotas,
    notification_limits: row.notification_limits ?? null,
  };
}

/**
 * Metrics whose used amount is a level carried from period to period (what is stored, what is
 * active) rather than a count that starts at zero each period (runs, tokens, notifications).
 */
export const GAUGE_METRICS: readonly UsageMetric[] = ['storage_bytes', 'active_workflows', 'seats'];

export const isGauge = (metric: UsageMetric): boolean => GAUGE_METRICS.includes(metric);

export { USAGE_METRICS };
