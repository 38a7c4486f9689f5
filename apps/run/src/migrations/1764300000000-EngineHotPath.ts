import type { MigrationInterface, QueryRunner } from 'typeorm';
import { enterTenantFunctionStatements } from '@platform/db';

/**
 * The engine's hot path, measured with `npm run bench -- engine`:
 * - Its two hottest writes become functions that set the tenant context themselves (see libs/db
 *   tenant-functions.ts): starting an execution, and committing a step with its logs and, at the
 *   end, the execution's new state. Each is one round trip instead of three, and PL/pgSQL keeps
 *   their plans. SECURITY INVOKER: RLS applies to every row they read or write.
 * - Step and log rows lose their foreign keys to executions. Only these functions (and the
 *   resolution of a waiting step) write them, after reading the execution under the worker's
 *   lease; the per-row check and its KEY SHARE lock on the execution cost more PostgreSQL time
 *   than the rest of a multi-step run. Retention deletes the three together.
 * - The list indexes of executions no longer lead with tenant_id (RLS pins the environment, and
 *   environment and workflow ids are unique across tenants). Before the first ANALYZE, the
 *   planner cannot tell them from the primary key and picked one for lookups by (tenant_id, id),
 *   scanning every row of the tenant; the primary key is now the only index such a lookup fits.
 * - Step and log rows are only ever read by execution: their primary keys become (tenant_id,
 *   execution_id, id) and replace the by-execution indexes, one index write fewer per row.
 */
export class EngineHotPath1764300000000 implements MigrationInterface {
  name = 'EngineHotPath1764300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`alter table run.execution_steps drop constraint execution_steps_tenant_id_execution_id_fkey`);
    await q.query(`alter table run.execution_logs drop constraint execution_logs_tenant_id_execution_id_fkey`);
    await q.query(`drop index run.executions_list, run.executions_by_workflow`);
    await q.query(`create index executions_list on run.executions (environment_id, id desc)`);
    await q.query(`create index executions_by_workflow on run.executions (workflow_id, id desc)`);
    for (const table of ['execution_steps', 'execution_logs']) {
      await q.query(`alter table run.${table} drop constraint ${table}_pkey, add primary key (tenant_id, execution_id, id)`);
      await q.query(`drop index run.${table}_by_execution`);
    }
    for (const statement of enterTenantFunctionStatements('run')) await q.query(statement);

    // The row is made from the workflow's current version (and its timeout) only if the workflow
    // exists and is active: no row otherwise. With a worker, the row is born running under that
    // worker's lease, so the process that accepted the start can run it without a second claim.
    await q.query(`create function run.start_execution(
        p_tenant uuid, p_env uuid, p_scope uuid, p_async boolean,
        p_id uuid, p_workflow uuid, p_input jsonb, p_trigger_type text, p_trigger_id text,
        p_parent uuid, p_parent_path text, p_idempotency_key text, p_request_hash text,
        p_default_timeout_seconds int, p_worker text, p_lease_seconds double precision)
      returns setof run.executions language plpgsql volatile security invoker as $$
      begin
        perform run.enter_tenant(p_tenant, p_env, p_scope, p_async);
        return query
          with inserted as (
            insert into run.executions (tenant_id, environment_id, id, scope_id, workflow_id, workflow_version, status, input, trigger_type, trigger_id,
                   parent_execution_id, parent_step_path, idempotency_key, request_hash, timeout_at, lease_owner, lease_until, started_at)
            select p_tenant, p_env, p_id, p_scope, w.id, w.current_version, case when p_worker is null then 'queued' else 'running' end, p_input,
                   p_trigger_type, p_trigger_id, p_parent, p_parent_path, p_idempotency_key, p_request_hash,
                   now() + make_interval(secs => coalesce((v.definition -> 'settings' ->> 'timeout_seconds')::int, p_default_timeout_seconds)),
                   p_worker, case when p_worker is null then null else now() + make_interval(secs => p_lease_seconds) end,
                   case when p_worker is null then null else now() end
              from run.workflows w
              join run.workflow_versions v on v.tenant_id = w.tenant_id and v.workflow_id = w.id and v.version = w.current_version
             where w.id = p_workflow and w.deleted_at is null and w.status = 'active'
            returning *)
          select * from inserted;
      end $$`);

    // Everything here happens only while p_worker holds the execution's lease; false otherwise.
    // A step's success is recorded once (the partial unique index): a redelivered duplicate is
    // dropped with its logs. p_settle, when given, ends or parks the execution in the same
    // transaction: {status, output, error, wake_at}.
    await q.query(`create function run.commit_step(
        p_tenant uuid, p_env uuid, p_scope uuid, p_async boolean,
        p_execution uuid, p_worker text, p_step jsonb, p_logs jsonb, p_settle jsonb)
      returns boolean language plpgsql volatile security invoker as $$
      declare
        v_recorded boolean := true;
        v_owner text;
      begin
        perform run.enter_tenant(p_tenant, p_env, p_scope, p_async);
        -- Only a running execution has a lease owner (claims set both, every other change clears
        -- it), so the owner alone checks the lease. Both lookups go by primary key alone: a status
        -- condition would let a plan take the partial index of active runs, full of dead entries
        -- between vacuums. Settling first is safe: the whole call is one transaction.
        if p_settle is not null then
          update run.executions
             set status = p_settle ->> 'status', output = nullif(p_settle -> 'output', 'null'), error = nullif(p_settle -> 'error', 'null'),
                 wake_at = (p_settle ->> 'wake_at')::timestamptz, lease_owner = null, lease_until = null,
                 finished_at = case when p_settle ->> 'status' in ('succeeded', 'failed', 'cancelled', 'timed_out') then now() end
           where tenant_id = p_tenant and id = p_execution and lease_owner = p_worker;
          if not found then
            return false;
          end if;
        else
          select lease_owner into v_owner from run.executions where tenant_id = p_tenant and id = p_execution;
          if v_owner is distinct from p_worker then
            return false;
          end if;
        end if;
        if p_step is not null then
          insert into run.execution_steps (tenant_id, environment_id, id, scope_id, execution_id, path, step_id, type, status, attempt, input, output, error, wake_at, started_at, finished_at)
          select p_tenant, p_env, s.id, p_scope, p_execution, s.path, s.step_id, s.type, s.status, s.attempt, s.input, s.output, s.error, s.wake_at, s.started_at, s.finished_at
            from jsonb_populate_record(null::run.execution_steps, p_step) s
          on conflict (tenant_id, execution_id, path) where status in ('succeeded', 'skipped') do nothing;
          v_recorded := found;
        end if;
        if v_recorded and jsonb_array_length(coalesce(p_logs, '[]'::jsonb)) > 0 then
          insert into run.execution_logs (tenant_id, environment_id, scope_id, execution_id, id, step_id, level, message, data, created_at)
          select p_tenant, p_env, p_scope, p_execution, l.id, l.step_id, l.level, l.message, l.data, l.created_at
            from jsonb_populate_recordset(null::run.execution_logs, p_logs) l;
        end if;
        return true;
      end $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`drop function run.commit_step, run.start_execution, run.enter_tenant`);
    for (const table of ['execution_steps', 'execution_logs']) {
      await q.query(`create index ${table}_by_execution on run.${table} (tenant_id, execution_id, id)`);
      await q.query(`alter table run.${table} drop constraint ${table}_pkey, add primary key (tenant_id, id)`);
    }
    await q.query(`drop index run.executions_list, run.executions_by_workflow`);
    await q.query(`create index executions_list on run.executions (tenant_id, environment_id, id desc)`);
    await q.query(`create index executions_by_workflow on run.executions (tenant_id, workflow_id, id desc)`);
    await q.query(`alter table run.execution_logs add foreign key (tenant_id, execution_id) references run.executions (tenant_id, id) on delete cascade`);
    await q.query(`alter table run.execution_steps add foreign key (tenant_id, execution_id) references run.executions (tenant_id, id) on delete cascade`);
  }
}
