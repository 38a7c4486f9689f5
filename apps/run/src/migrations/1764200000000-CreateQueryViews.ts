import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Read-only views of run data for `/v1/data/query` (storage). `security_invoker` makes the
 * caller's RLS context apply to the underlying tables, so a tenant sees exactly its own rows;
 * the views expose no tenant columns and no inputs or outputs (which may be large or private).
 */
export class CreateQueryViews1764200000000 implements MigrationInterface {
  name = 'CreateQueryViews1764200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`create view query.workflows with (security_invoker = true) as
      select id, name, description, current_version as version, status, created_at, updated_at
        from run.workflows where deleted_at is null`);
    await q.query(`create view query.executions with (security_invoker = true) as
      select id, workflow_id, workflow_version, status, trigger_type, scope_id as customer_id, error ->> 'code' as error_code,
             created_at, started_at, finished_at, extract(epoch from (finished_at - started_at)) * 1000 as duration_ms
        from run.executions`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`drop view query.executions, query.workflows`);
  }
}
