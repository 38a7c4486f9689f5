-- The one write path of a task's outcome into its execution (the engine port
-- ExecutionStore.resolveTaskStep): records the waiting step's outcome and wakes the execution;
-- given a worker, also claims it, so the outcome is recorded and its run taken in one statement.
-- A tenant function (libs/db tenant-functions.ts): its first four parameters are the context and
-- its first statement enters it, so a call is one round trip under row-level security.
create or replace function run.resolve_task_step(
  p_tenant uuid, p_env uuid, p_scope uuid, p_async boolean, p_execution uuid, p_path text,
  p_id uuid, p_status text, p_output jsonb, p_error jsonb, p_worker text,
  p_lease_seconds double precision)
  returns table(state text, scope_id uuid, request_id text, claimed run.executions, prior_status text, step_records jsonb)
  language plpgsql
as $$
  #variable_conflict use_column
  declare
    w record;
    e record;
  begin
    perform run.enter_tenant(p_tenant, p_env, p_scope, p_async);
    select x.status, x.scope_id, x.request_id into e from run.executions x where x.id = p_execution;
    if not found then
      return query select 'done'::text, null::uuid, null::text, null::run.executions, null::text, null::jsonb;
      return;
    end if;
    -- A finished execution keeps its waiting row: an end that arrives after it finished (a task
    -- decided just before a cancel) changes nothing.
    if e.status in ('succeeded', 'failed', 'cancelled', 'timed_out') then
      return query select 'done'::text, e.scope_id, e.request_id, null::run.executions, null::text, null::jsonb;
      return;
    end if;
    select s.step_id, s.type, s.attempt, s.input, s.started_at into w from run.execution_steps s
     where s.execution_id = p_execution and s.path = p_path and s.status = 'waiting' order by s.id desc limit 1;
    -- This wait resolved before (the end is recorded with the waiting attempt's number): a
    -- redelivered end, failed ones included, which the partial unique index (successes only)
    -- would let through. A retry waits under a higher attempt number.
    if found and exists (
         select 1 from run.execution_steps s
          where s.execution_id = p_execution and s.path = p_path and s.status in ('succeeded', 'skipped', 'failed') and s.attempt >= w.attempt) then
      return query select 'done'::text, e.scope_id, e.request_id, null::run.executions, null::text, null::jsonb;
      return;
    end if;
    if w.attempt is null then
      if e.status in ('succeeded', 'failed', 'cancelled', 'timed_out') or exists (
           select 1 from run.execution_steps s where s.execution_id = p_execution and s.path = p_path and s.status in ('succeeded', 'skipped', 'failed')) then
        return query select 'done'::text, e.scope_id, e.request_id, null::run.executions, null::text, null::jsonb;
      else
        return query select 'early'::text, e.scope_id, e.request_id, null::run.executions, null::text, null::jsonb;
      end if;
      return;
    end if;
    -- The outcome keeps the waiting row's input and start: the step began when it started to
    -- wait, so its record spans the wait (a person's decision, a child's run).
    insert into run.execution_steps (tenant_id, environment_id, id, scope_id, execution_id, path, step_id, type, status, attempt, input, output, error, started_at, finished_at)
    values (p_tenant, p_env, p_id, e.scope_id, p_execution, p_path, w.step_id, w.type, p_status, w.attempt, w.input, p_output, p_error, w.started_at, now())
    on conflict (tenant_id, execution_id, path) where status in ('succeeded', 'skipped') do nothing;
    if not found then
      return query select 'done'::text, e.scope_id, e.request_id, null::run.executions, null::text, null::jsonb;
      return;
    end if;
    if p_worker is null then
      update run.executions set wake_at = now() where id = p_execution and status = 'waiting';
      return query select 'resolved'::text, e.scope_id, e.request_id, null::run.executions, null::text, null::jsonb;
      return;
    end if;
    -- The wait is over, so the execution is due: this worker takes it in the same update (one
    -- new row version, not one to wake it and another to claim it).
    update run.executions x set status = 'running', lease_owner = p_worker, lease_until = now() + make_interval(secs => p_lease_seconds),
           wake_at = null, started_at = coalesce(x.started_at, now())
     where x.id = p_execution and x.status = 'waiting';
    if not found then
      -- Not waiting (another worker runs it meanwhile, or its lease ran out: the caller wakes it).
      return query select 'resolved'::text, e.scope_id, e.request_id, null::run.executions, null::text, null::jsonb;
      return;
    end if;
    return query select 'resolved'::text, e.scope_id, e.request_id, x, 'waiting'::text, run.step_records_json(p_execution)
      from run.executions x where x.id = p_execution;
  end
$$;
