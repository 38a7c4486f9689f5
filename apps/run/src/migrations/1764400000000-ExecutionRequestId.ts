import type { MigrationInterface, QueryRunner } from 'typeorm';

const START_EXECUTION_BODY = (withRequestId: boolean) => `
      returns setof run.executions language plpgsql volatile security invoker as $$
      begin
        perform run.enter_tenant(p_tenant, p_env, p_scope, p_async);
        return query
          with inserted as (
            insert into run.executions (tenant_id, environment_id, id, scope_id, workflow_id, workflow_version, status, input, trigger_type, trigger_id,
                   parent_execution_id, parent_step_path, idempotency_key, request_hash, timeout_at, lease_owner, lease_until, started_at${withRequestId ? ', request_id' : ''})
            select p_tenant, p_env, p_id, p_scope, w.id, w.current_version, case when p_worker is null then 'queued' else 'running' end, p_input,
                   p_trigger_type, p_trigger_id, p_parent, p_parent_path, p_idempotency_key, p_request_hash,
                   now() + make_interval(secs => coalesce((v.definition -> 'settings' ->> 'timeout_seconds')::int, p_default_timeout_seconds)),
                   p_worker, case when p_worker is null then null else now() + make_interval(secs => p_lease_seconds) end,
                   case when p_worker is null then null else now() end${withRequestId ? ', p_request_id' : ''}
              from run.workflows w
              join run.workflow_versions v on v.tenant_id = w.tenant_id and v.workflow_id = w.id and v.version = w.current_version
             where w.id = p_workflow and w.deleted_at is null and w.status = 'active'
            returning *)
          select * from inserted;
      end $$`;

const PARAMETERS = `p_tenant uuid, p_env uuid, p_scope uuid, p_async boolean,
        p_id uuid, p_workflow uuid, p_input jsonb, p_trigger_type text, p_trigger_id text,
        p_parent uuid, p_parent_path text, p_idempotency_key text, p_request_hash text,
        p_default_timeout_seconds int, p_worker text, p_lease_seconds double precision`;

/**
 * The request that started an execution, kept with it: every run of it (on any replica, resumed
 * by the reconciler, days later after a delay) works in that request's context, so its log lines
 * and every message it causes carry the id. Null for executions started before this migration.
 * run.start_execution (EngineHotPath) takes the id as a new last parameter.
 */
export class ExecutionRequestId1764400000000 implements MigrationInterface {
  name = 'ExecutionRequestId1764400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`alter table run.executions add column request_id text`);
    // The row type of run.executions changed: the function is made again for it, with the new parameter.
    await q.query(`drop function run.start_execution(${PARAMETERS})`);
    await q.query(`create function run.start_execution(${PARAMETERS}, p_request_id text) ${START_EXECUTION_BODY(true)}`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`drop function run.start_execution(${PARAMETERS}, p_request_id text)`);
    await q.query(`alter table run.executions drop column request_id`);
    await q.query(`create function run.start_execution(${PARAMETERS}) ${START_EXECUTION_BODY(false)}`);
  }
}
