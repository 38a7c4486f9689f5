-- Cancels the open tasks of an execution that ended; every execution that ends asks this (most have
-- no open task left). A tenant function (libs/db tenant-functions.ts): its first four parameters are the context and
-- its first statement enters it, so a call is one round trip under row-level security.
create or replace function task.cancel_for_execution(
  p_tenant uuid, p_env uuid, p_scope uuid, p_async boolean, p_execution uuid)
  returns setof task.tasks
  language plpgsql
as $$
  begin
    perform task.enter_tenant(p_tenant, p_env, p_scope, p_async);
    return query update task.tasks set status = 'cancelled', updated_at = now() where execution_id = p_execution and status = 'pending' returning *;
  end
$$;
