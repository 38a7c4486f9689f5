-- Commits step records (p_steps: a JSON array in the order they ran; a pure step's record waits
-- for the next commit) with their logs while p_worker holds the execution's lease (false
-- otherwise). A step's success is recorded once (the partial unique index): a redelivered
-- duplicate is dropped, and the logs with it when no record was new. p_settle, when given, ends
-- or parks the execution in the same transaction: {status, output, error, wake_at}.
-- A tenant function (libs/db tenant-functions.ts): its first four parameters are the context and
-- its first statement enters it, so a call is one round trip under row-level security.
create or replace function run.commit_step(
  p_tenant uuid, p_env uuid, p_scope uuid, p_async boolean, p_execution uuid, p_worker text,
  p_steps jsonb, p_logs jsonb, p_settle jsonb)
  returns boolean
  language plpgsql
as $$
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
    if jsonb_array_length(coalesce(p_steps, '[]'::jsonb)) > 0 then
      insert into run.execution_steps (tenant_id, environment_id, id, scope_id, execution_id, path, step_id, type, status, attempt, input, output, error, wake_at, started_at, finished_at)
      select p_tenant, p_env, s.id, p_scope, p_execution, s.path, s.step_id, s.type, s.status, s.attempt, s.input, s.output, s.error, s.wake_at, s.started_at, s.finished_at
        from jsonb_populate_recordset(null::run.execution_steps, p_steps) s
      on conflict (tenant_id, execution_id, path) where status in ('succeeded', 'skipped') do nothing;
      v_recorded := found;
    end if;
    if v_recorded and jsonb_array_length(coalesce(p_logs, '[]'::jsonb)) > 0 then
      insert into run.execution_logs (tenant_id, environment_id, scope_id, execution_id, id, step_id, level, message, data, created_at)
      select p_tenant, p_env, p_scope, p_execution, l.id, l.step_id, l.level, l.message, l.data, l.created_at
        from jsonb_populate_recordset(null::run.execution_logs, p_logs) l;
    end if;
    return true;
  end
$$;
