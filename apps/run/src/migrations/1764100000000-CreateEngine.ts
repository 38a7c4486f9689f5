import type { MigrationInterface, QueryRunner } from 'typeorm';
import { applyTenantRls } from '@platform/db';

/**
 * Workflows with immutable versions, executions, one row per step attempt, and logs. Executions
 * and their rows carry the customer scope of whoever started them; workflows are tenant-wide
 * unless a customer made them.
 */
export class CreateEngine1764100000000 implements MigrationInterface {
  name = 'CreateEngine1764100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`create table run.workflows (
      tenant_id uuid not null, environment_id uuid not null, id uuid not null, scope_id uuid,
      name text not null, description text,
      status text not null default 'active' check (status in ('active', 'disabled')),
      current_version int not null,
      created_at timestamptz not null default now(), updated_at timestamptz not null default now(), deleted_at timestamptz,
      primary key (tenant_id, id))`);
    await q.query(`create index workflows_list on run.workflows (tenant_id, environment_id, id) where deleted_at is null`);
    await applyTenantRls(q, 'run.workflows', { scope: 'shared' });

    await q.query(`create table run.workflow_versions (
      tenant_id uuid not null, environment_id uuid not null, workflow_id uuid not null, version int not null,
      definition jsonb not null, created_at timestamptz not null default now(),
      primary key (tenant_id, workflow_id, version),
      foreign key (tenant_id, workflow_id) references run.workflows (tenant_id, id))`);
    await applyTenantRls(q, 'run.workflow_versions');

    await q.query(`create table run.executions (
      tenant_id uuid not null, environment_id uuid not null, id uuid not null, scope_id uuid,
      workflow_id uuid not null, workflow_version int not null,
      status text not null check (status in ('queued', 'running', 'waiting', 'succeeded', 'failed', 'cancelled', 'timed_out')),
      input jsonb not null, output jsonb, error jsonb,
      trigger_type text not null, trigger_id text,
      parent_execution_id uuid, parent_step_path text,
      idempotency_key text, request_hash text,
      created_at timestamptz not null default now(), started_at timestamptz, finished_at timestamptz,
      timeout_at timestamptz not null,
      wake_at timestamptz, lease_owner text, lease_until timestamptz,
      primary key (tenant_id, id),
      foreign key (tenant_id, workflow_id, workflow_version) references run.workflow_versions (tenant_id, workflow_id, version))`);
    await q.query(`create index executions_list on run.executions (tenant_id, environment_id, id desc)`);
    await q.query(`create index executions_by_workflow on run.executions (tenant_id, workflow_id, id desc)`);
    await q.query(
      `create unique index executions_idempotency on run.executions (tenant_id, environment_id, idempotency_key) where idempotency_key is not null`,
    );
    // The reconciler's scans: what is due, stuck or lost, across tenants (system path).
    await q.query(`create index executions_due on run.executions (wake_at) where status = 'waiting' and wake_at is not null`);
    await q.query(`create index executions_active on run.executions (status, lease_until, created_at) where status in ('queued', 'running')`);
    await q.query(`create index executions_retention on run.executions (finished_at) where finished_at is not null`);
    await applyTenantRls(q, 'run.executions', { scope: 'owned' });

    await q.query(`create table run.execution_steps (
      tenant_id uuid not null, environment_id uuid not null, id uuid not null, scope_id uuid,
      execution_id uuid not null, path text not null, step_id text not null, type text not null,
      status text not null check (status in ('running', 'waiting', 'succeeded', 'failed', 'skipped', 'cancelled')),
      attempt int not null, input jsonb, output jsonb, error jsonb, wake_at timestamptz,
      started_at timestamptz not null default now(), finished_at timestamptz,
      primary key (tenant_id, id),
      foreign key (tenant_id, execution_id) references run.executions (tenant_id, id) on delete cascade)`);
    await q.query(`create index execution_steps_by_execution on run.execution_steps (tenant_id, execution_id, id)`);
    // A step is recorded as succeeded once, whatever a crashed and redelivered worker does.
    await q.query(
      `create unique index execution_steps_succeeded_once on run.execution_steps (tenant_id, execution_id, path) where status in ('succeeded', 'skipped')`,
    );
    await applyTenantRls(q, 'run.execution_steps', { scope: 'owned' });

    await q.query(`create table run.execution_logs (
      tenant_id uuid not null, environment_id uuid not null, id uuid not null, scope_id uuid,
      execution_id uuid not null, step_id text, level text not null check (level in ('debug', 'info', 'warn', 'error')),
      message text not null, data jsonb, created_at timestamptz not null default now(),
      primary key (tenant_id, id),
      foreign key (tenant_id, execution_id) references run.executions (tenant_id, id) on delete cascade)`);
    await q.query(`create index execution_logs_by_execution on run.execution_logs (tenant_id, execution_id, id)`);
    await applyTenantRls(q, 'run.execution_logs', { scope: 'owned' });
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`drop table run.execution_logs, run.execution_steps, run.executions, run.workflow_versions, run.workflows`);
  }
}
