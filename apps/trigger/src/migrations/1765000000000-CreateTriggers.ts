import type { MigrationInterface, QueryRunner } from 'typeorm';
import { applyTenantRls } from '@platform/db';

/**
 * Triggers and their executions. A trigger execution is the claim of one firing: its key
 * (`fire_key`: the scheduled instant of a tick, the id of an event) is unique per trigger, and
 * the claim is committed in the same transaction that moves the trigger's `next_fire_at`, so two
 * scheduler replicas can never both fire one tick. The run is started after the commit with an
 * idempotency key derived from the claim; a claim whose start was lost (crash, run service down)
 * stays `pending` until the scheduler's reconciler starts it.
 */
export class CreateTriggers1765000000000 implements MigrationInterface {
  name = 'CreateTriggers1765000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`create table trigger.triggers (
      tenant_id uuid not null,
      environment_id uuid not null,
      scope_id uuid,
      id uuid not null,
      name text not null,
      workflow_id uuid not null,
      type text not null check (type in ('schedule', 'event', 'webhook')),
      enabled boolean not null default true,
      input jsonb,
      cron text,
      interval_seconds integer,
      timezone text,
      start_at timestamptz,
      end_at timestamptz,
      misfire text check (misfire in ('fire_once', 'skip')),
      event_type text,
      event_filter text,
      webhook_id uuid,
      next_fire_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (tenant_id, id))`);
    await q.query(`create index triggers_list on trigger.triggers (tenant_id, environment_id, id)`);
    // The scheduler's scan across tenants (SystemDb): due, enabled schedules.
    await q.query(`create index triggers_due on trigger.triggers (next_fire_at) where type = 'schedule' and enabled`);
    // Event triggers matching an event type, per tenant.
    await q.query(`create index triggers_events on trigger.triggers (tenant_id, environment_id, event_type) where type = 'event' and enabled`);
    await applyTenantRls(q, 'trigger.triggers', { scope: 'owned' });

    await q.query(`create table trigger.executions (
      tenant_id uuid not null,
      environment_id uuid not null,
      scope_id uuid,
      id uuid not null,
      trigger_id uuid not null,
      workflow_id uuid not null,
      fire_key text not null,
      scheduled_for timestamptz not null,
      fired_at timestamptz not null default now(),
      run_input jsonb,
      run_id uuid,
      status text not null check (status in ('pending', 'started', 'skipped', 'failed')),
      error text,
      attempts integer not null default 0,
      primary key (tenant_id, id),
      unique (tenant_id, trigger_id, fire_key),
      foreign key (tenant_id, trigger_id) references trigger.triggers (tenant_id, id) on delete cascade)`);
    await q.query(`create index executions_list on trigger.executions (tenant_id, trigger_id, id desc)`);
    await q.query(`create index executions_pending on trigger.executions (fired_at) where status = 'pending'`);
    await applyTenantRls(q, 'trigger.executions', { scope: 'owned' });
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`drop table trigger.executions, trigger.triggers`);
  }
}
