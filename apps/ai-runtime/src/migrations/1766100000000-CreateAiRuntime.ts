import type { MigrationInterface, QueryRunner } from 'typeorm';
import { applyTenantRls } from '@platform/db';

/**
 * Model providers of a tenant environment (an OpenAI-compatible API each; the API key sealed with
 * AES-256-GCM under the tenant's key, bound to the provider's id) and agent runs with every model
 * and tool call they made (`steps`). Providers are tenant-wide (customers use them, never see or
 * change them); agent runs belong to the customer whose key started them.
 */
export class CreateAiRuntime1766100000000 implements MigrationInterface {
  name = 'CreateAiRuntime1766100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`create table ai.providers (
      tenant_id uuid not null,
      environment_id uuid not null,
      id uuid not null,
      name text not null,
      base_url text not null,
      api_key_header text not null default 'authorization' check (api_key_header in ('authorization', 'api-key')),
      models jsonb not null,
      secret_iv bytea,
      secret_ciphertext bytea,
      secret_tag bytea,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (tenant_id, id))`);
    await q.query(`create unique index providers_name on ai.providers (tenant_id, environment_id, name)`);
    await applyTenantRls(q, 'ai.providers');

    await q.query(`create table ai.agent_runs (
      tenant_id uuid not null,
      environment_id uuid not null,
      scope_id uuid,
      id uuid not null,
      agent_id uuid not null,
      execution_id uuid,
      status text not null check (status in ('running', 'waiting_approval', 'succeeded', 'failed')),
      input jsonb not null,
      output text,
      error jsonb,
      steps jsonb not null default '[]',
      usage jsonb not null default '{"prompt_tokens":0,"completion_tokens":0,"total_tokens":0}',
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      finished_at timestamptz,
      primary key (tenant_id, id))`);
    await q.query(`create index agent_runs_list on ai.agent_runs (tenant_id, environment_id, id desc)`);
    await applyTenantRls(q, 'ai.agent_runs', { scope: 'owned' });
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`drop table ai.agent_runs, ai.providers`);
  }
}
