-- Starts an execution that its worker has already run to the end before the row existed (a
-- workflow of pure steps, engine/runner/pure-runs.ts): start_execution with the worker's claim,
-- then, when the row was made from the version that was run (p_version), commit_step with every
-- step record, log line and the settlement, all in one transaction. Answers the row as it ends:
-- settled, or still running under the claim (another version is current now: the worker runs it
-- as any start), or no row (start_execution's refusal). Nothing of the run is visible before
-- the commit, so a crash before it leaves no trace but an unanswered start.
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
    select * into v_row
      from run.start_execution(p_tenant, p_env, p_scope, p_async, p_id, p_workflow, p_input, p_trigger_type, p_trigger_id, p_parent,
           p_parent_path, p_idempotency_key, p_request_hash, p_default_timeout_seconds, p_worker, p_lease_seconds, p_request_id, p_usage);
    if not found then
      return;
    end if;
    if v_row.workflow_version = p_version
       and run.commit_step(p_tenant, p_env, p_scope, p_async, p_id, p_worker, p_steps, p_logs, p_settle) then
      -- It began when its first step did, just before the row was made: the start was accepted then.
      update run.executions set created_at = least(created_at, p_started_at), started_at = least(started_at, p_started_at)
       where tenant_id = p_tenant and id = p_id
      returning * into v_row;
    end if;
    return next v_row;
  end
$$;
