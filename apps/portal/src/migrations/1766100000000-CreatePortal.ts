import type { MigrationInterface, QueryRunner } from 'typeorm';
import { applyTenantRls } from '@platform/db';

/**
 * Published workflows, dashboards, embed tokens and the platform's signing keys.
 * - Published workflows and dashboards are the tenant's (no scope column): which customer may
 *   see a published workflow is its visibility, checked in the query.
 * - Embeds are owned by the customer they are bound to (`scope_id`), so a customer key sees
 *   only its own.
 * - Signing keys belong to the platform, not to a tenant: read and rotated through SystemDb,
 *   private halves sealed with the shared SealedBox.
 */
export class CreatePortal1766100000000 implements MigrationInterface {
  name = 'CreatePortal1766100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`create table portal.published_workflows (
      tenant_id uuid not null,
      environment_id uuid not null,
      id uuid not null,
      workflow_id uuid not null,
      all_customers boolean not null,
      customer_ids uuid[] not null default '{}',
      title text not null,
      description text,
      input_form jsonb,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (tenant_id, id))`);
    await q.query(`create index published_workflows_list on portal.published_workflows (tenant_id, environment_id, id)`);
    await q.query(`create index published_workflows_customers on portal.published_workflows using gin (customer_ids)`);
    await applyTenantRls(q, 'portal.published_workflows');

    await q.query(`create table portal.dashboards (
      tenant_id uuid not null,
      environment_id uuid not null,
      id uuid not null,
      name text not null,
      description text,
      widgets jsonb not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (tenant_id, id))`);
    await q.query(`create index dashboards_list on portal.dashboards (tenant_id, environment_id, id)`);
    await applyTenantRls(q, 'portal.dashboards');

    await q.query(`create table portal.embeds (
      tenant_id uuid not null,
      environment_id uuid not null,
      scope_id uuid not null,
      id uuid not null,
      kind text not null check (kind in ('form', 'runs', 'dashboard')),
      target_id uuid not null,
      allowed_origins text[] not null,
      rate_limit_per_minute int not null,
      expires_at timestamptz not null,
      revoked_at timestamptz,
      created_by text,
      created_at timestamptz not null default now(),
      primary key (tenant_id, id))`);
    await q.query(`create index embeds_list on portal.embeds (tenant_id, environment_id, id)`);
    await applyTenantRls(q, 'portal.embeds', { scope: 'owned' });

    await q.query(`create table portal.signing_keys (
      id uuid primary key,
      public_jwk jsonb not null,
      private_iv bytea not null,
      private_ciphertext bytea not null,
      private_tag bytea not null,
      created_at timestamptz not null default now(),
      signs_until timestamptz not null,
      verifies_until timestamptz not null)`);
    await q.query(`create index signing_keys_current on portal.signing_keys (verifies_until)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`drop table portal.signing_keys, portal.embeds, portal.dashboards, portal.published_workflows`);
  }
}
