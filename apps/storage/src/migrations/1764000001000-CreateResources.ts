import type { MigrationInterface, QueryRunner } from 'typeorm';
import { applyTenantRls, dropTenantRlsStatements } from '@platform/db';

/**
 * Resources: named configuration objects (a database, an API endpoint) that workflows refer to.
 * Names are unique per tenant and environment; a customer-scoped caller sees only its own.
 */
export class CreateResources1764000001000 implements MigrationInterface {
  name = 'CreateResources1764000001000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`create table storage.resources (
      tenant_id uuid not null,
      environment_id uuid not null,
      id uuid not null,
      scope_id uuid,
      name text not null check (name ~ '^[A-Za-z0-9_.-]{1,128}$'),
      type text not null check (char_length(type) between 1 and 64),
      config jsonb not null default '{}' check (jsonb_typeof(config) = 'object'),
      description text check (char_length(description) <= 1000),
      -- Milliseconds, as clients see them in JSON.
      created_at timestamptz not null default date_trunc('milliseconds', now()),
      updated_at timestamptz not null default date_trunc('milliseconds', now()),
      primary key (tenant_id, id),
      unique (tenant_id, environment_id, name))`);
    await q.query(`create index resources_type on storage.resources (tenant_id, environment_id, type, name)`);
    await applyTenantRls(q, 'storage.resources', { scope: 'owned' });
  }

  async down(q: QueryRunner): Promise<void> {
    for (const sql of dropTenantRlsStatements('storage.resources')) await q.query(sql);
    await q.query(`drop table storage.resources`);
  }
}
