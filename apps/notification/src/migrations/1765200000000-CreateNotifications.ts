import type { MigrationInterface, QueryRunner } from 'typeorm';
import { applyTenantRls } from '@platform/db';

/**
 * Channels and notifications. A channel's secrets (SMTP password, Slack webhook URL or bot token,
 * Teams URL) are one JSON object sealed with AES-256-GCM under a per-tenant key derived from the
 * master key, bound to the channel's id. A notification is written before the 202 with its content
 * already rendered; its delivery is a JetStream work item pointing at the row, and the row records
 * every attempt (`attempts`), so the history survives any crash of the worker.
 */
export class CreateNotifications1765200000000 implements MigrationInterface {
  name = 'CreateNotifications1765200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`create table notification.channels (
      tenant_id uuid not null,
      environment_id uuid not null,
      scope_id uuid,
      id uuid not null,
      name text not null,
      kind text not null check (kind in ('email', 'slack', 'teams')),
      config jsonb not null,
      secret_iv bytea,
      secret_ciphertext bytea,
      secret_tag bytea,
      enabled boolean not null default true,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (tenant_id, id))`);
    await q.query(`create index channels_list on notification.channels (tenant_id, environment_id, id)`);
    await applyTenantRls(q, 'notification.channels', { scope: 'owned' });

    await q.query(`create table notification.notifications (
      tenant_id uuid not null,
      environment_id uuid not null,
      scope_id uuid,
      id uuid not null,
      channel_id uuid,
      kind text not null check (kind in ('email', 'slack', 'teams')),
      source text not null check (source in ('api', 'workflow', 'platform')),
      recipients jsonb,
      target_iv bytea,
      target_ciphertext bytea,
      target_tag bytea,
      subject text,
      template text,
      content jsonb not null,
      status text not null check (status in ('queued', 'sending', 'retrying', 'delivered', 'failed', 'rate_limited')),
      attempts jsonb not null default '[]',
      attempt_count integer not null default 0,
      next_attempt_at timestamptz,
      lease_until timestamptz,
      idempotency_key text,
      request_hash text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      delivered_at timestamptz,
      primary key (tenant_id, id))`);
    await q.query(
      `create unique index notifications_idempotency on notification.notifications (tenant_id, environment_id, idempotency_key) where idempotency_key is not null`,
    );
    await q.query(`create index notifications_history on notification.notifications (tenant_id, environment_id, id desc)`);
    // The reconciler's scan (system path): notifications still owed a delivery.
    await q.query(`create index notifications_pending on notification.notifications (updated_at) where status in ('queued', 'sending', 'retrying')`);
    await applyTenantRls(q, 'notification.notifications', { scope: 'owned' });
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`drop table notification.notifications, notification.channels`);
  }
}
