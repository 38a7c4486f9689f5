import type { MigrationInterface, QueryRunner } from 'typeorm';
import { applyTenantRls } from '@platform/db';

/** AI agent configurations: tenant-wide ones (readable by customers) and customers' own ('shared'). */
export class CreateAiAgents1766100000000 implements MigrationInterface {
  name = 'CreateAiAgents1766100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`create table catalog.ai_agents (
      tenant_id uuid not null,
      environment_id uuid not null,
      scope_id uuid,
      id uuid not null,
      name text not null,
      description text,
      model text not null,
      instructions text not null,
      tools jsonb not null default '[]',
      max_steps integer,
      time_budget_seconds integer,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (tenant_id, id))`);
    await q.query(`create index ai_agents_list on catalog.ai_agents (tenant_id, environment_id, id)`);
    await applyTenantRls(q, 'catalog.ai_agents', { scope: 'shared' });
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`drop table catalog.ai_agents`);
  }
}
