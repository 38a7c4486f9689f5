-- Claims an execution for p_worker and reads what earlier runs recorded, in one round trip: every
-- wake-up (a delay ended, a child finished) resumes through here. The step records come as JSON,
-- only for an execution that ran before (a queued one has none). A tenant function (libs/db tenant-functions.ts): its first four parameters are the context and
-- its first statement enters it, so a call is one round trip under row-level security.
create or replace function run.claim_execution(
  p_tenant uuid, p_env uuid, p_scope uuid, p_async boolean, p_id uuid, p_worker text,
  p_lease_seconds double precision)
  returns table(claimed run.executions, prior_status text, step_records jsonb)
  language plpgsql
as $$
  declare
    v_prior text;
  begin
    perform run.enter_tenant(p_tenant, p_env, p_scope, p_async);
    -- The subquery reads the status before this update; the WHERE is re-checked on the locked
    -- row, so two workers never both claim.
    update run.executions e set status = 'running', lease_owner = p_worker, lease_until = now() + make_interval(secs => p_lease_seconds), wake_at = null,
           started_at = coalesce(e.started_at, now())
      from (select x.tenant_id, x.id, x.status as before_status from run.executions x where x.id = p_id) p
     where e.tenant_id = p.tenant_id and e.id = p.id
       and (e.status = 'queued' or (e.status = 'waiting' and e.wake_at <= now()) or (e.status = 'running' and e.lease_until < now()))
    returning p.before_status into v_prior;
    if not found then
      return;
    end if;
    return query
      select x, v_prior, case when v_prior = 'queued' then null else run.step_records_json(p_id) end
        from run.executions x where x.id = p_id;
  end
$$;
