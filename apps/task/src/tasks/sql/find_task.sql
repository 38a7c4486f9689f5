-- Reads one task. A tenant function (libs/db tenant-functions.ts): its first four parameters are the context and
-- its first statement enters it, so a call is one round trip under row-level security.
create or replace function task.find_task(
  p_tenant uuid, p_env uuid, p_scope uuid, p_async boolean, p_id uuid)
  returns setof task.tasks
  language plpgsql
  stable
as $$
  begin
    perform task.enter_tenant(p_tenant, p_env, p_scope, p_async);
    return query select * from task.tasks where id = p_id;
  end
$$;
