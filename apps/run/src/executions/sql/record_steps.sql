-- Writes step records (p_steps: a JSON array in the order they ran) and their log lines for an
-- execution whose lease the caller holds (commit_step) or that it has just made (start_finished).
-- A step's success is recorded once (the partial unique index): a redelivered duplicate is
-- dropped, and the logs with it when no record was new. Runs inside the caller's tenant context.
create or replace function run.record_steps(p_tenant uuid, p_env uuid, p_scope uuid, p_execution uuid, p_steps jsonb, p_logs jsonb)
  returns void
  language plpgsql
as $$
  declare
    v_recorded boolean := true;
  begin
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
  end
$$;
