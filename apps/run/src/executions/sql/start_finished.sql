-- Starts an execution that its worker has already run to the end before the row existed (a
-- workflow of pure steps, engine/runner/pure-runs.ts). When the workflow's current version is
-- still the one that was run (p_version), the row is born settled (p_settle: {status, output,
-- error, wake_at}), accepted and begun when its first step began (p_started_at), with its step
-- records, log lines and usage fact, all in one transaction and one write of the row: no update
-- after the insert, so no second version of the row and its index entries. Otherwise it is the
-- usual start (start_execution, under the worker's claim: the worker runs it as any start) or no
-- row (its refusal). Nothing of the run is visible before the commit, so a crash before it leaves
-- no trace but an unanswered start.
-- A tenant function (libs/db tenant-functions.ts): its first four parameters are the context and
-- its first statement enters it, so a call is one round trip under row-level security.
create or replace function run.start_finished(
  p_tenant uuid, p_env uuid, p_scope uuid, p_async boolean, p_id uuid, p_workflow uuid,
  p_input jsonb, p_trigger_type text, p_trigger_id text, p_parent uuid, p_parent_path text,
  p_idempotency_key text, p_request_hash text, p_default_timeout_seconds integer,
  p_worker text, p_lease_seconds double precision, p_request_id text, p_usage jsonb,
  p_version integer, p_started_at timestamptz, p_steps jsonb, p_logs jsonb, p_settle jsonb)
  returns setof run.executions
  language plpgsql
as $$
  declare
    v_row run.executions;
  begin
    perform run.enter_tenant(p_tenant, p_env, p_scope, p_async);
    insert into run.executions (tenant_id, environment_id, id, scope_id, workflow_id, workflow_version, status, input, output, error, trigger_type,
           trigger_id, parent_execution_id, parent_step_path, idempotency_key, request_hash, created_at, started_at, finished_at, timeout_at, wake_at,
           request_id)
    select p_tenant, p_env, p_id, p_scope, w.id, w.current_version, p_settle ->> 'status', p_input, nullif(p_settle -> 'output', 'null'),
           nullif(p_settle -> 'error', 'null'), p_trigger_type, p_trigger_id, p_parent, p_parent_path, p_idempotency_key, p_request_hash,
           least(now(), p_started_at), least(now(), p_started_at),
           case when p_settle ->> 'status' in ('succeeded', 'failed', 'cancelled', 'timed_out') then now() end,
           now() + make_interval(secs => coalesce((v.definition -> 'settings' ->> 'timeout_seconds')::int, p_default_timeout_seconds)),
           (p_settle ->> 'wake_at')::timestamptz, p_request_id
      from run.workflows w
      join run.workflow_versions v on v.tenant_id = w.tenant_id and v.workflow_id = w.id and v.version = w.current_version
     where w.id = p_workflow and w.deleted_at is null and w.status = 'active' and w.current_version = p_version
    returning * into v_row;
    if not found then
      return query select * from run.start_execution(p_tenant, p_env, p_scope, p_async, p_id, p_workflow, p_input, p_trigger_type, p_trigger_id,
             p_parent, p_parent_path, p_idempotency_key, p_request_hash, p_default_timeout_seconds, p_worker, p_lease_seconds, p_request_id, p_usage);
      return;
    end if;
    perform run.meter_start(p_usage);
    perform run.record_steps(p_tenant, p_env, p_scope, p_id, p_steps, p_logs);
    return next v_row;
  end
$$;
