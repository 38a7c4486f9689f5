import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The secret API keys are hashed with, stored sealed under the master key ring instead of derived
 * from the master key, so that rotating the master key re-seals this one row and every key keeps
 * verifying. Platform-wide (no tenant): only the system path reads it.
 */
export class ApiKeyHashKey1766700000000 implements MigrationInterface {
  name = 'ApiKeyHashKey1766700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`create table account.hash_keys (
      name text primary key,
      secret_iv bytea not null,
      secret_ciphertext bytea not null,
      secret_tag bytea not null,
      created_at timestamptz not null default now())`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`drop table account.hash_keys`);
  }
}
