import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * How often the reconciler has queued a notification again without progress. One whose delivery
 * never records an attempt (it crashes its worker every time) is failed after
 * NOTIFICATION_MAX_REQUEUES instead of being queued forever.
 */
export class CountDeliveryRequeues1766600000000 implements MigrationInterface {
  name = 'CountDeliveryRequeues1766600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`alter table notification.notifications add column requeues integer not null default 0`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`alter table notification.notifications drop column requeues`);
  }
}
