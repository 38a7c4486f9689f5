import type { MigrationInterface, QueryRunner } from 'typeorm';
import { applyTenantRls, dropTenantRlsStatements } from '@platform/db';

/**
 * Files (their content lives in the file backend under storage_key) and the Idempotency-Keys of
 * uploads. A customer-scoped caller sees only its own files ('owned'); a tenant caller sees all.
 */
export class CreateFiles1764000000000 implements MigrationInterface {
  name = 'CreateFiles1764000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`create table storage.files (
      tenant_id uuid not null,
      environment_id uuid not null,
      id uuid not null,
      scope_id uuid,
      name text not null check (char_length(name) between 1 and 255),
      size bigint not null check (size >= 0),
      content_type text not null,
      declared_content_type text,
      checksum_sha256 text not null check (checksum_sha256 ~ '^[0-9a-f]{64}$'),
      storage_key text not null,
      metadata jsonb not null default '{}' check (jsonb_typeof(metadata) = 'object'),
      created_by text,
      -- Milliseconds, as clients see it in JSON: a created_at read back is an exact filter bound.
      created_at timestamptz not null default date_trunc('milliseconds', now()),
      primary key (tenant_id, id))`);
    await q.query(`create index files_list on storage.files (tenant_id, environment_id, id)`);
    await q.query(`create index files_name on storage.files (tenant_id, environment_id, name text_pattern_ops)`);
    await applyTenantRls(q, 'storage.files', { scope: 'owned' });

    // The first answer to each Idempotency-Key, for 24 hours; unique per caller scope.
    await q.query(`create table storage.file_upload_keys (
      tenant_id uuid not null,
      environment_id uuid not null,
      id uuid not null,
      scope_id uuid,
      idempotency_key text not null,
      fingerprint text not null,
      file_id uuid not null,
      response jsonb not null,
      created_at timestamptz not null default now(),
      primary key (tenant_id, id))`);
    await q.query(`create unique index file_upload_keys_key on storage.file_upload_keys
      (tenant_id, environment_id, idempotency_key, coalesce(scope_id, '00000000-0000-0000-0000-000000000000'::uuid))`);
    await q.query(`create index file_upload_keys_age on storage.file_upload_keys (tenant_id, environment_id, created_at)`);
    await applyTenantRls(q, 'storage.file_upload_keys', { scope: 'owned' });
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['storage.file_upload_keys', 'storage.files']) {
      for (const sql of dropTenantRlsStatements(table)) await q.query(sql);
      await q.query(`drop table ${table}`);
    }
  }
}
