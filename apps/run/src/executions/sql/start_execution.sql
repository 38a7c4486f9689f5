-- Starts an execution. The row is made from the workflow's current version (and its timeout) only
-- if the workflow exists and is active: no row otherwise. With a worker, the row is born running
-- under that worker's lease, so the process that accepted the start runs it without a second
-- claim. p_usage, when given, is the run's usage fact, written to the outbox in the same
-- statement (published after the commit; see libs/service usage-outbox). A tenant function (libs/db tenant-functions.ts): its first four parameters are the context and
-- its first statement enters it, so a call is one round trip under row-level security.
create or replace function run.start_execution(
  p_tenant uuid, p_env uuid, p_scope uuid, p_async boolean, p_id uuid, p_workflow uuid,
  p_input jsonb, p_trigger_type text, p_trigger_id text, p_parent uuid, p_parent_path text,
  p_idempotency_key text, p_request_hash text, p_default_timeout_seconds integer,
  p_worker text, p_lease_seconds double precision, p_request_id text, p_usage jsonb)
  returns setof run.executions
  language plpgsql
as $$
  begin
    perform run.enter_tenant(p_tenant, p_env, p_scope, p_async);
    return query
      with inserted as (insert into run.executions (tenant_id, environment_id, id, scope_id, workflow_id, workflow_version, status, input, trigger_type, trigger_id,
               parent_execution_id, parent_step_path, idempotency_key, request_hash, timeout_at, lease_owner, lease_until, started_at, request_id)
        select p_tenant, p_env, p_id, p_scope, w.id, w.current_version, case when p_worker is null then 'queued' else 'running' end, p_input,
               p_trigger_type, p_trigger_id, p_parent, p_parent_path, p_idempotency_key, p_request_hash,
               now() + make_interval(secs => coalesce((v.definition -> 'settings' ->> 'timeout_seconds')::int, p_default_timeout_seconds)),
               p_worker, case when p_worker is null then null else now() + make_interval(secs => p_lease_seconds) end,
               case when p_worker is null then null else now() end, p_request_id
          from run.workflows w
          join run.workflow_versions v on v.tenant_id = w.tenant_id and v.workflow_id = w.id and v.version = w.current_version
         where w.id = p_workflow and w.deleted_at is null and w.status = 'active'
        returning *),
      metered as (
        insert into run.usage_outbox (tenant_id, environment_id, scope_id, event_id, metric, quantity, key_mode, occurred_at, request_id, actor)
        select u.tenant_id, u.environment_id, u.scope_id, u.event_id, u.metric, u.quantity, u.key_mode, u.occurred_at, u.request_id, u.actor
          from inserted, jsonb_to_record(p_usage) as u(tenant_id uuid, environment_id uuid, scope_id uuid, event_id uuid, metric text, quantity bigint,
               key_mode text, occurred_at timestamptz, request_id text, actor text)
         where p_usage is not null
        on conflict do nothing)
      select * from inserted;
  end
$$;
