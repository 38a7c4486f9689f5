import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A subscription records the billing pass's failures to close its period: how many passes failed
 * in a row, the last error and when. The pass stops trying once the count reaches
 * SUBSCRIPTION_BILLING_MAX_ATTEMPTS (an operator retries with POST /subscription/system/billing/retry);
 * a successful close clears them.
 */
export class BillingFailures1767000000001 implements MigrationInterface {
  name = 'BillingFailures1767000000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`alter table subscription.subscriptions
      add column billing_attempts int not null default 0,
      add column billing_error text,
      add column billing_failed_at timestamptz`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`alter table subscription.subscriptions drop column billing_attempts, drop column billing_error, drop column billing_failed_at`);
  }
}
