import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * API keys record the failed attempts to publish their expiry notice: how many passes failed, the
 * last error (short, from the bus: never the key), and when the job gave up on it. A notice is
 * tried again each pass only while the key has not expired (past that the notice is moot); a key
 * that reaches its expiry date unannounced after failed attempts gets `expiry_notice_failed_at`.
 */
export class KeyExpiryNoticeFailures1767000000021 implements MigrationInterface {
  name = 'KeyExpiryNoticeFailures1767000000021';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`alter table account.api_keys
      add column expiry_notice_attempts int not null default 0,
      add column expiry_notice_error text,
      add column expiry_notice_failed_at timestamptz`);
    // The give-up scan (system path): keys whose notice failed and is still neither sent nor given up.
    await q.query(
      `create index api_keys_expiry_notice_failing on account.api_keys (expires_at)
        where expiry_notice_attempts > 0 and expiry_notice_at is null and expiry_notice_failed_at is null`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`drop index account.api_keys_expiry_notice_failing`);
    await q.query(`alter table account.api_keys drop column expiry_notice_attempts, drop column expiry_notice_error, drop column expiry_notice_failed_at`);
  }
}
