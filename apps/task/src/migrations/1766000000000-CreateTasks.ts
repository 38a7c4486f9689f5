import type { MigrationInterface, QueryRunner } from 'typeorm';
import { applyTenantRls } from '@platform/db';

/**
 * Human tasks (approval and form steps) and their signed links. A task is unique per execution
 * and step path, so the run service asking twice makes one task. `outcome_pending` is the outbox
 * flag: set in the transaction that completes or expires the task, cleared once the outcome is
 * on the run service's durable queue; the reconciler publishes what is still flagged.
 */
export class CreateTasks1766000000000 implements MigrationInterface {
  name = 'CreateTasks1766000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`create table task.tasks (
      tenant_id uuid not null,
      environment_id uuid not null,
      scope_id uuid,
      id uuid not null,
      type text not null check (type in ('approval', 'form')),
      status text not null check (status in ('pending', 'completed', 'expired', 'cancelled')),
      title text not null,
      description text,
      execution_id uuid not null,
      workflow_id uuid not null,
      workflow_name text not null default '',
      step_id text not null,
      step_path text not null,
      assignee_type text check (assignee_type in ('user', 'team', 'customer')),
      assignee_id uuid,
      form jsonb,
      context jsonb,
      due_at timestamptz,
      on_expiry jsonb,
      escalated boolean not null default false,
      decision text check (decision in ('approve', 'reject', 'submit')),
      data jsonb,
      completed_by text,
      completed_at timestamptz,
      outcome_pending boolean not null default false,
      checked_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (tenant_id, id),
      unique (tenant_id, execution_id, step_path))`);
    await q.query(`create index tasks_list on task.tasks (tenant_id, environment_id, status, id)`);
    // The deadline reconciler's scan (across tenants, through the system path).
    await q.query(`create index tasks_due on task.tasks (due_at) where status = 'pending' and due_at is not null`);
    // The outbox reconciler's scan.
    await q.query(`create index tasks_outbox on task.tasks (completed_at) where outcome_pending`);
    // The execution watch: pending tasks whose execution was last checked longest ago.
    await q.query(`create index tasks_watch on task.tasks ((coalesce(checked_at, created_at))) where status = 'pending'`);
    await applyTenantRls(q, 'task.tasks', { scope: 'owned' });

    await q.query(`create table task.task_links (
      tenant_id uuid not null,
      environment_id uuid not null,
      scope_id uuid,
      id uuid not null,
      task_id uuid not null,
      decisions text[] not null,
      expires_at timestamptz not null,
      used_at timestamptz,
      created_by text,
      created_at timestamptz not null default now(),
      primary key (tenant_id, id),
      foreign key (tenant_id, task_id) references task.tasks (tenant_id, id) on delete cascade)`);
    await applyTenantRls(q, 'task.task_links', { scope: 'owned' });
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`drop table task.task_links, task.tasks`);
  }
}
