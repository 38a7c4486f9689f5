import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * API keys remember when their expiry was announced (`api_key_expiring` notices): each key is
 * announced once, whichever replica finds it and however often the service restarts.
 */
export class KeyExpiryNotices1766300001000 implements MigrationInterface {
  name = 'KeyExpiryNotices1766300001000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`alter table account.api_keys add column expiry_notice_at timestamptz`);
    // The notice job's scan (system path): active keys with a date, not announced yet.
    await q.query(
      `create index api_keys_expiry_notice_due on account.api_keys (expires_at) where status = 'active' and expires_at is not null and expiry_notice_at is null`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`drop index account.api_keys_expiry_notice_due`);
    await q.query(`alter table account.api_keys drop column expiry_notice_at`);
  }
}
