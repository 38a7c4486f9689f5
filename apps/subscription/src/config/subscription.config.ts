import { IsInt, Matches, Max, Min } from 'class-validator';
import { loadConfig } from '@platform/common';

/** The subscription service's own settings (environment variables). */
export class SubscriptionConfig {
  /** The plan a tenant starts on (its subscription is made with its first usage or request). */
  @Matches(/^[a-z0-9][a-z0-9_-]{0,39}$/, { message: 'must be a plan code (a-z, 0-9, _ and -)' })
  SUBSCRIPTION_DEFAULT_PLAN: string = 'free';

  /** Time between billing passes on each replica: a period that has ended gets its invoice within this. */
  @IsInt()
  @Min(100)
  @Max(3_600_000)
  SUBSCRIPTION_BILLING_INTERVAL_MS: number = 60_000;

  /**
   * Billing passes in a row that may fail to close one tenant's ended period before the pass
   * leaves it to an operator (the failure stays recorded on the subscription and in the log;
   * POST /subscription/system/billing/retry tries it again).
   */
  @IsInt()
  @Min(1)
  @Max(1000)
  SUBSCRIPTION_BILLING_MAX_ATTEMPTS: number = 10;

  /** Usage facts aggregated at once on each replica (pulled from the JetStream work queue). */
  @IsInt()
  @Min(1)
  @Max(1000)
  SUBSCRIPTION_USAGE_CONCURRENCY: number = 64;
}

export const SUBSCRIPTION_CONFIG = Symbol('SUBSCRIPTION_CONFIG');

export function loadSubscriptionConfig(env: Record<string, string | undefined> = process.env): SubscriptionConfig {
  return loadConfig(SubscriptionConfig, env);
}
