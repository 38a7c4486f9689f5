import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A version keeps the name, description and status it was saved with, so `GET ?version=n` and the
 * console's version diff show that version as it was, not the workflow's current name.
 * Versions saved before this migration take the workflow's values at migration time: the earlier
 * ones were never recorded (docs/workflows.md says so).
 */
export class VersionedWorkflowMeta1766500000000 implements MigrationInterface {
  name = 'VersionedWorkflowMeta1766500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`alter table run.workflow_versions add column name text, add column description text,
      add column status text check (status in ('active', 'disabled'))`);
    await q.query(`update run.workflow_versions v set name = w.name, description = w.description, status = w.status
      from run.workflows w where w.tenant_id = v.tenant_id and w.id = v.workflow_id`);
    await q.query(`alter table run.workflow_versions alter column name set not null, alter column status set not null`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`alter table run.workflow_versions drop column name, drop column description, drop column status`);
  }
}
