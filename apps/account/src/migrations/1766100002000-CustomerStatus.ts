import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Customers can be disabled: their keys stop verifying and their scope cannot be selected. */
export class CustomerStatus1766100002000 implements MigrationInterface {
  name = 'CustomerStatus1766100002000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`alter table account.customers add column disabled_at timestamptz`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`alter table account.customers drop column disabled_at`);
  }
}
