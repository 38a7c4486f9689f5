import type { MigrationInterface, QueryRunner } from 'typeorm';
import { applyTenantRls } from '@platform/db';

/**
 * Incoming webhooks and their deliveries. A webhook's secret is stored sealed (AES-256-GCM under
 * a per-tenant key derived from the master key). A delivery is the durable record of one request:
 * written before the answer, deduplicated per webhook by `dedupe_key` (the `webhook-id` or
 * `Idempotency-Key` header), and its run started afterwards with an idempotency key derived from
 * the delivery's id, so a start that is lost or repeated by the reconciler never doubles a run.
 */
export class CreateWebhooks1765000000000 implements MigrationInterface {
  name = 'CreateWebhooks1765000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`create table webhook.webhooks (
      tenant_id uuid not null,
      environment_id uuid not null,
      scope_id uuid,
      id uuid not null,
      name text not null,
      workflow_id uuid not null,
      verification_type text not null check (verification_type in ('hmac', 'token', 'none')),
      token_header text,
      secret_iv bytea,
      secret_ciphertext bytea,
      secret_tag bytea,
      response_mode text not null check (response_mode in ('async', 'sync')),
      timeout_ms integer,
      enabled boolean not null default true,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (tenant_id, id))`);
    await q.query(`create index webhooks_list on webhook.webhooks (tenant_id, environment_id, id)`);
    // The public receiving route knows only the id: it finds the owner through this index (SystemDb).
    await q.query(`create index webhooks_by_id on webhook.webhooks (id)`);
    await applyTenantRls(q, 'webhook.webhooks', { scope: 'owned' });

    await q.query(`create table webhook.deliveries (
      tenant_id uuid not null,
      environment_id uuid not null,
      scope_id uuid,
      id uuid not null,
      webhook_id uuid not null,
      workflow_id uuid not null,
      received_at timestamptz not null default now(),
      method text not null,
      headers jsonb not null,
      body bytea not null,
      content_type text,
      outcome text not null check (outcome in ('accepted', 'duplicate', 'rejected')),
      reason text,
      status_code integer not null,
      dedupe_key text,
      run_input jsonb,
      run_id uuid,
      start_error text,
      start_attempts integer not null default 0,
      replay_of uuid,
      primary key (tenant_id, id),
      foreign key (tenant_id, webhook_id) references webhook.webhooks (tenant_id, id) on delete cascade)`);
    await q.query(`create unique index deliveries_dedupe on webhook.deliveries (tenant_id, webhook_id, dedupe_key) where dedupe_key is not null`);
    await q.query(`create index deliveries_log on webhook.deliveries (tenant_id, webhook_id, id desc)`);
    // The reconciler's scan: accepted deliveries whose run has not started yet.
    await q.query(
      `create index deliveries_unstarted on webhook.deliveries (received_at) where outcome = 'accepted' and run_id is null and start_error is null`,
    );
    await applyTenantRls(q, 'webhook.deliveries', { scope: 'owned' });
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`drop table webhook.deliveries, webhook.webhooks`);
  }
}
