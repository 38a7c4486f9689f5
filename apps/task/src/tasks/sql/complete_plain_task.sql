-- A tenant key (allowed whoever the assignee) deciding a task without a form: the checks are the
-- update's conditions, so the usual case is one round trip; no row means "check and explain".
-- p_decisions: the decisions each task type takes, {type: [decision]}, from the one list in
-- task.record.ts (decisionsOf), so this function holds no copy of it.
-- A tenant function (libs/db tenant-functions.ts): its first four parameters are the context and
-- its first statement enters it, so a call is one round trip under row-level security.
create or replace function task.complete_plain_task(
  p_tenant uuid, p_env uuid, p_scope uuid, p_async boolean, p_id uuid, p_decision text,
  p_data jsonb, p_by text, p_decisions jsonb)
  returns setof task.tasks
  language plpgsql
as $$
  begin
    perform task.enter_tenant(p_tenant, p_env, p_scope, p_async);
    return query update task.tasks
       set status = 'completed', decision = p_decision, data = p_data, completed_by = p_by, completed_at = now(), outcome_pending = true, updated_at = now()
     where id = p_id and status = 'pending' and form is null
       and coalesce(p_decisions -> type, '[]'::jsonb) ? p_decision
     returning *;
  end
$$;
