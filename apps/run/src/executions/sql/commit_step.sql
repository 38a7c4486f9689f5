-- Commits step records (p_steps: a JSON array in the order they ran; a pure step's record waits
-- for the next commit) with their logs while p_worker holds the execution's lease (false
-- otherwise), through record_steps (a redelivered duplicate is dropped). p_settle, when given, ends
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
    perform run.record_steps(p_tenant, p_env, p_scope, p_execution, p_steps, p_logs);
    return true;
  end
$$;
