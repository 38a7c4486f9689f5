import type { MigrationInterface, QueryRunner } from 'typeorm';
import { applyTenantRls } from '@platform/db';

/**
 * Connections and OAuth authorizations in progress. A connection's credentials (keys, passwords,
 * client secrets, access and refresh tokens) are one JSON object sealed with the shared SealedBox
 * (AES-256-GCM, per-tenant key from the master key) and bound to the connection id. A connection
 * belongs to the tenant (scope_id null) or to one customer: customers read tenant-wide rows (their
 * runs may use them) and write only their own.
 */
export class CreateConnections1765600000000 implements MigrationInterface {
  name = 'CreateConnections1765600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`create table connection.connections (
      tenant_id uuid not null,
      environment_id uuid not null,
      scope_id uuid,
      id uuid not null,
      name text not null,
      connector_id text not null,
      auth_type text not null check (auth_type in ('none', 'api_key', 'basic', 'bearer', 'oauth2_code', 'oauth2_client_credentials')),
      auth_settings jsonb not null default '{}',
      settings jsonb not null default '{}',
      secret_iv bytea,
      secret_ciphertext bytea,
      secret_tag bytea,
      status text not null check (status in ('active', 'pending_authorization', 'needs_reauth')),
      status_reason text,
      token_expires_at timestamptz,
      token_refreshed_at timestamptz,
      token_refresh_count integer not null default 0,
      last_tested_at timestamptz,
      last_test_ok boolean,
      created_by text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (tenant_id, id))`);
    await q.query(`create index connections_list on connection.connections (tenant_id, environment_id, id)`);
    await q.query(`create index connections_by_customer on connection.connections (tenant_id, environment_id, connector_id, scope_id, id)`);
    await applyTenantRls(q, 'connection.connections', { scope: 'shared' });

    await q.query(`create table connection.oauth_states (
      tenant_id uuid not null,
      environment_id uuid not null,
      scope_id uuid,
      id uuid not null,
      connection_id uuid not null,
      subject text not null,
      verifier_iv bytea not null,
      verifier_ciphertext bytea not null,
      verifier_tag bytea not null,
      redirect_uri text not null,
      return_url text,
      expires_at timestamptz not null,
      created_at timestamptz not null default now(),
      primary key (tenant_id, id),
      foreign key (tenant_id, connection_id) references connection.connections (tenant_id, id) on delete cascade)`);
    await applyTenantRls(q, 'connection.oauth_states', { scope: 'owned' });
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`drop table connection.oauth_states, connection.connections`);
  }
}
