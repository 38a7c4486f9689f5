import type { MigrationInterface, QueryRunner } from 'typeorm';
import { applyTenantRls } from '@platform/db';

/**
 * Marketplace listings are platform-wide (no tenant: every tenant browses the same shelf); an
 * install copies the listed definition into the environment, so a later version of the listing
 * never changes what running workflows call until the tenant installs it again. A tenant's own
 * (custom) connector is a row without a listing.
 */
export class CreateConnectorCatalog1765600000000 implements MigrationInterface {
  name = 'CreateConnectorCatalog1765600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`create table catalog.marketplace_listings (
      id uuid primary key,
      kind text not null check (kind in ('connector', 'template')),
      slug text not null,
      name text not null,
      description text not null,
      publisher text not null,
      version text not null,
      categories text[] not null default '{}',
      content jsonb not null,
      installs integer not null default 0,
      published_at timestamptz not null default now(),
      unique (kind, slug))`);
    await q.query(`create table catalog.installed_connectors (
      tenant_id uuid not null,
      environment_id uuid not null,
      connector_id text not null,
      listing_id uuid,
      version text not null,
      definition jsonb not null,
      installed_at timestamptz not null default now(),
      primary key (tenant_id, environment_id, connector_id))`);
    await applyTenantRls(q, 'catalog.installed_connectors');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`drop table catalog.installed_connectors, catalog.marketplace_listings`);
  }
}
