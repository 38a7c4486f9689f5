-- Starts an execution. The row is made from the workflow's current version (and its timeout) only
-- if the workflow exists and is active: no row otherwise. With a worker, the row is born running
-- under that worker's lease, so the process that accepted the start runs it without a second
-- claim. p_usage, when given, is the run's usage fact, written to the outbox in the same
-- transaction (meter_start). A tenant function (libs/db tenant-functions.ts): its first four parameters are the context and
-- its first statement enters it, so a call is one round trip under row-level security.
create or replace function run.start_execution(
  p_tenant uuid, p_env uuid, p_scope uuid, p_async boolean, p_id uuid, p_workflow uuid,
  p_input jsonb, p_trigger_type text, p_trigger_id text, p_parent uuid, p_parent_path text,
  p_idempotency_key text, p_request_hash text, p_default_timeout_seconds integer,
  p_worker text, p_lease_seconds double precision, p_request_id text, p_usage jsonb)
  returns setof run.executions
  language plpgsql
as $$
  declare
    v_row run.executions;
  begin
    perform run.enter_tenant(p_tenant, p_env, p_scope, p_async);
    insert into run.executions (tenant_id, environment_id, id, scope_id, workflow_id, workflow_version, status, input, trigger_type, trigger_id,
           parent_execution_id, parent_step_path, idempotency_key, request_hash, timeout_at, lease_owner, lease_until, started_at, request_id)
    select p_tenant, p_env, p_id, p_scope, w.id, w.current_version, case when p_worker is null then 'queued' else 'running' end, p_input,
           p_trigger_type, p_trigger_id, p_parent, p_parent_path, p_idempotency_key, p_request_hash,
           now() + make_interval(secs => coalesce((v.definition -> 'settings' ->> 'timeout_seconds')::int, p_default_timeout_seconds)),
           p_worker, case when p_worker is null then null else now() + make_interval(secs => p_lease_seconds) end,
           case when p_worker is null then null else now() end, p_request_id
      from run.workflows w
      join run.workflow_versions v on v.tenant_id = w.tenant_id and v.workflow_id = w.id and v.version = w.current_version
     where w.id = p_workflow and w.deleted_at is null and w.status = 'active'
    returning * into v_row;
    if not found then
      return;
    end if;
    perform run.meter_start(p_usage);
    return next v_row;
  end
$$;
