import type { MigrationInterface, QueryRunner } from 'typeorm';
import { applyTenantRls } from '@platform/db';

/**
 * Secrets with envelope encryption: one data key per tenant and environment, stored wrapped
 * (AES-256-GCM) by a key-encryption key derived from the master key; secret values encrypted
 * under the data key. `master_key_id` names the master key a data key is wrapped with (a
 * fingerprint, never the key), so a service holding the current and the previous master key
 * knows which one unwraps a row, and the re-wrap job finds the rows still on the old one.
 */
export class CreateSecrets1764000002000 implements MigrationInterface {
  name = 'CreateSecrets1764000002000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`create table storage.data_keys (
      tenant_id uuid not null,
      environment_id uuid not null,
      id uuid not null,
      wrap_iv bytea not null check (octet_length(wrap_iv) = 12),
      wrapped_key bytea not null check (octet_length(wrapped_key) = 32),
      wrap_tag bytea not null check (octet_length(wrap_tag) = 16),
      master_key_id text not null,
      kek_version smallint not null,
      created_at timestamptz not null default now(),
      rewrapped_at timestamptz,
      primary key (tenant_id, id),
      unique (tenant_id, environment_id))`);
    await applyTenantRls(q, 'storage.data_keys');

    await q.query(`create table storage.secrets (
      tenant_id uuid not null,
      environment_id uuid not null,
      id uuid not null,
      name text not null check (name ~ '^[A-Za-z0-9_.-]{1,128}$'),
      description text,
      data_key_id uuid not null,
      cipher_version smallint not null,
      iv bytea not null check (octet_length(iv) = 12),
      ciphertext bytea not null,
      auth_tag bytea not null check (octet_length(auth_tag) = 16),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      last_read_at timestamptz,
      created_by text,
      primary key (tenant_id, id),
      unique (tenant_id, environment_id, name),
      foreign key (tenant_id, data_key_id) references storage.data_keys (tenant_id, id))`);
    await applyTenantRls(q, 'storage.secrets');

    // Who read or changed which secret, why and when; kept after the secret is deleted.
    await q.query(`create table storage.secret_access_log (
      tenant_id uuid not null,
      environment_id uuid not null,
      id uuid not null,
      secret_id uuid not null,
      secret_name text not null,
      action text not null check (action in ('read', 'create', 'replace', 'delete')),
      purpose text not null,
      actor text,
      request_id text,
      created_at timestamptz not null default now(),
      primary key (tenant_id, id))`);
    await q.query(`create index secret_access_log_secret on storage.secret_access_log (tenant_id, environment_id, secret_name, created_at desc)`);
    await applyTenantRls(q, 'storage.secret_access_log');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`drop table storage.secret_access_log, storage.secrets, storage.data_keys`);
  }
}
