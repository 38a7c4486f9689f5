import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Tasks that approve an AI agent's tool call: they belong to an agent run and the model's tool
 * call id instead of an execution and step path (exactly one of the two origins is set). Unique
 * per run and call, so the AI runtime asking twice makes one task.
 */
export class AgentApprovalTasks1766200000000 implements MigrationInterface {
  name = 'AgentApprovalTasks1766200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`alter table task.tasks
      alter column execution_id drop not null,
      alter column workflow_id drop not null,
      alter column step_id drop not null,
      alter column step_path drop not null,
      add column agent_run_id uuid,
      add column agent_id uuid,
      add column tool_call_id text,
      add constraint tasks_origin check (
        (execution_id is not null and workflow_id is not null and step_id is not null and step_path is not null and agent_run_id is null)
        or (execution_id is null and agent_run_id is not null and agent_id is not null and tool_call_id is not null)),
      add constraint tasks_agent_call unique (tenant_id, agent_run_id, tool_call_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`delete from task.tasks where agent_run_id is not null`);
    await q.query(`alter table task.tasks drop constraint tasks_agent_call, drop constraint tasks_origin,
      drop column tool_call_id, drop column agent_id, drop column agent_run_id,
      alter column execution_id set not null, alter column workflow_id set not null, alter column step_id set not null, alter column step_path set not null`);
  }
}
