import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Webhook triggers are found by their webhook when one of its deliveries is announced. */
export class WebhookTriggers1765100000000 implements MigrationInterface {
  name = 'WebhookTriggers1765100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`create index triggers_webhooks on trigger.triggers (tenant_id, environment_id, webhook_id) where type = 'webhook' and enabled`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`drop index trigger.triggers_webhooks`);
  }
}
