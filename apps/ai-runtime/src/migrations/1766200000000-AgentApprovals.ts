import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What a run waiting for a person's approval needs to resume on any replica, also after a
 * restart: the conversation so far, the tool calls not yet answered (the first waits), the steps
 * taken and the active time spent (`state`, cleared when the run ends), and the approval task.
 */
export class AgentApprovals1766200000000 implements MigrationInterface {
  name = 'AgentApprovals1766200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`alter table ai.agent_runs add column state jsonb, add column task_id uuid`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`alter table ai.agent_runs drop column task_id, drop column state`);
  }
}
