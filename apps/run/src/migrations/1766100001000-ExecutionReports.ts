import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The portal's dashboards count executions by creation time. This index answers those counts for
 * one tenant environment and period with an index-only scan: it leads with tenant_id and
 * environment_id (what RLS pins) and covers every column the report and the policy read.
 */
export class ExecutionReports1766100001000 implements MigrationInterface {
  name = 'ExecutionReports1766100001000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `create index executions_by_created on run.executions (tenant_id, environment_id, created_at)
         include (status, workflow_id, scope_id, started_at, finished_at)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`drop index run.executions_by_created`);
  }
}
