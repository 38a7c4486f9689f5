import type { MigrationInterface, QueryRunner } from 'typeorm';
import { applyTenantRls } from '@platform/db';

/**
 * Tenants, their environments (data planes), users and teams, customers, API keys and the audit
 * log. Primary keys and indexes lead with tenant_id (ARCHITECTURE: ready to distribute by tenant).
 */
export class CreateIdentity1763900000000 implements MigrationInterface {
  name = 'CreateIdentity1763900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`create table account.tenants (
      id uuid primary key,
      name text not null,
      status text not null default 'active' check (status in ('active', 'suspended')),
      created_at timestamptz not null default now())`);
    await q.query(`alter table account.tenants enable row level security`);
    await q.query(`alter table account.tenants force row level security`);
    await q.query(`create policy tenant_isolation on account.tenants
      using (id = NULLIF(current_setting('app.tenant_id', true), '')::uuid)
      with check (id = NULLIF(current_setting('app.tenant_id', true), '')::uuid)`);

    await q.query(`create table account.environments (
      tenant_id uuid not null references account.tenants (id),
      id uuid not null,
      name text not null,
      mode text not null check (mode in ('live', 'test')),
      created_at timestamptz not null default now(),
      primary key (tenant_id, id),
      unique (tenant_id, name))`);
    await q.query(`create unique index environments_id on account.environments (id)`);
    await applyTenantRls(q, 'account.environments', { environment: false });

    await q.query(`create table account.users (
      id uuid primary key,
      email text not null,
      name text,
      created_at timestamptz not null default now())`);
    await q.query(`create unique index users_email on account.users (lower(email))`);

    await q.query(`create table account.memberships (
      tenant_id uuid not null references account.tenants (id),
      user_id uuid not null references account.users (id),
      role text not null check (role in ('owner', 'admin', 'member')),
      created_at timestamptz not null default now(),
      primary key (tenant_id, user_id))`);
    await applyTenantRls(q, 'account.memberships', { environment: false });

    // A user is visible to a tenant only through a membership of that tenant; users are created
    // by the system path (signup), never by the application role.
    await q.query(`alter table account.users enable row level security`);
    await q.query(`alter table account.users force row level security`);
    await q.query(`create policy tenant_members on account.users for select using (exists (
      select 1 from account.memberships m
       where m.user_id = users.id and m.tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid))`);

    await q.query(`create table account.organizations (
      tenant_id uuid not null references account.tenants (id),
      id uuid not null,
      name text not null,
      created_at timestamptz not null default now(),
      primary key (tenant_id, id))`);
    await applyTenantRls(q, 'account.organizations', { environment: false });

    await q.query(`create table account.teams (
      tenant_id uuid not null,
      id uuid not null,
      organization_id uuid not null,
      name text not null,
      created_at timestamptz not null default now(),
      primary key (tenant_id, id),
      foreign key (tenant_id, organization_id) references account.organizations (tenant_id, id))`);
    await applyTenantRls(q, 'account.teams', { environment: false });

    await q.query(`create table account.team_members (
      tenant_id uuid not null,
      team_id uuid not null,
      user_id uuid not null references account.users (id),
      role text not null check (role in ('owner', 'admin', 'member')),
      created_at timestamptz not null default now(),
      primary key (tenant_id, team_id, user_id),
      foreign key (tenant_id, team_id) references account.teams (tenant_id, id))`);
    await applyTenantRls(q, 'account.team_members', { environment: false });

    await q.query(`create table account.customers (
      tenant_id uuid not null,
      environment_id uuid not null,
      id uuid not null,
      scope_id uuid generated always as (id) stored,
      name text not null,
      external_id text,
      metadata jsonb not null default '{}',
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (tenant_id, id),
      foreign key (tenant_id, environment_id) references account.environments (tenant_id, id))`);
    await q.query(`create unique index customers_external_id on account.customers (tenant_id, environment_id, external_id) where external_id is not null`);
    await q.query(`create index customers_list on account.customers (tenant_id, environment_id, id)`);
    await applyTenantRls(q, 'account.customers', { scope: 'owned' });

    await q.query(`create table account.api_keys (
      tenant_id uuid not null,
      environment_id uuid not null,
      id uuid not null,
      scope_id uuid,
      name text not null,
      type text not null check (type in ('tenant', 'customer')),
      mode text not null check (mode in ('live', 'test')),
      customer_id uuid,
      scopes text[] not null,
      prefix text not null,
      key_hash bytea not null,
      status text not null default 'active' check (status in ('active', 'revoked', 'expired', 'rotated')),
      expires_at timestamptz,
      grace_until timestamptz,
      created_at timestamptz not null default now(),
      last_used_at timestamptz,
      revoked_at timestamptz,
      rotated_at timestamptz,
      replaced_by uuid,
      created_by text,
      primary key (tenant_id, id),
      check ((type = 'customer') = (customer_id is not null)),
      check (scope_id is not distinct from customer_id),
      foreign key (tenant_id, environment_id) references account.environments (tenant_id, id),
      foreign key (tenant_id, customer_id) references account.customers (tenant_id, id))`);
    await q.query(`create unique index api_keys_hash on account.api_keys (key_hash)`);
    await q.query(`create index api_keys_list on account.api_keys (tenant_id, environment_id, id)`);
    await q.query(`create index api_keys_expiring on account.api_keys (expires_at) where status = 'active' and expires_at is not null`);
    await applyTenantRls(q, 'account.api_keys', { scope: 'owned' });

    await q.query(`create table account.audit_logs (
      tenant_id uuid not null,
      environment_id uuid not null,
      id uuid not null,
      scope_id uuid,
      key_id uuid,
      key_name text,
      user_id uuid,
      method text not null,
      endpoint text not null,
      status text not null check (status in ('success', 'error')),
      http_status int not null,
      request_id text,
      ip text,
      created_at timestamptz not null,
      primary key (tenant_id, id))`);
    await q.query(`create index audit_logs_time on account.audit_logs (tenant_id, environment_id, created_at desc, id desc)`);
    await q.query(`create index audit_logs_key on account.audit_logs (tenant_id, key_id, created_at)`);
    await applyTenantRls(q, 'account.audit_logs', { scope: 'owned' });
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`drop table account.audit_logs, account.api_keys, account.customers, account.team_members, account.teams,
      account.organizations, account.users, account.memberships, account.environments, account.tenants`);
  }
}
