import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A webhook that a webhook trigger points at announces its accepted deliveries
 * (`webhook.delivery.received`); the others do not pay for an announcement nobody reads.
 */
export class WebhookTriggerLinks1765100000000 implements MigrationInterface {
  name = 'WebhookTriggerLinks1765100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`alter table webhook.webhooks add column fires_triggers boolean not null default false`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`alter table webhook.webhooks drop column fires_triggers`);
  }
}
