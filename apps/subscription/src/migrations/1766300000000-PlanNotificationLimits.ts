import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Plans gain notification sending limits (per minute and per UTC day, enforced by the
 * notification service). The seeded plans get theirs; a plan an operator added keeps none (null),
 * so the notification service's settings still apply to it until it is replaced with limits.
 * The values are written out here, not read from seed-plans.ts: a migration means what it meant
 * when it ran.
 */
const SEEDED: Record<string, { per_minute: number; per_day: number }> = {
  free: { per_minute: 600, per_day: 20_000 },
  pro: { per_minute: 3_000, per_day: 100_000 },
  enterprise: { per_minute: 30_000, per_day: 2_000_000 },
};

export class PlanNotificationLimits1766300000000 implements MigrationInterface {
  name = 'PlanNotificationLimits1766300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`alter table subscription.plans add column notification_limits jsonb
      check (notification_limits is null or (jsonb_typeof(notification_limits -> 'per_minute') = 'number' and jsonb_typeof(notification_limits -> 'per_day') = 'number'))`);
    for (const [code, limits] of Object.entries(SEEDED)) {
      await q.query(`update subscription.plans set notification_limits = $2 where code = $1 and notification_limits is null`, [code, JSON.stringify(limits)]);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`alter table subscription.plans drop column notification_limits`);
  }
}
