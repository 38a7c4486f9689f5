-- Several starts of one tenant context whose runs were done ahead of their rows (pure-runs.ts), in
-- one statement and so one transaction and one commit: under load the starts that arrive together
-- share a round trip and a WAL flush instead of paying one each (finished-starts.ts). Each element
-- of p_runs is one start_finished call's own parameters, by name; every row written or refused
-- comes back as start_finished returns it (a refused start returns no row). One failing start
-- fails the statement and writes none of them; the caller then makes each start alone.
-- A tenant function (libs/db tenant-functions.ts): the context is entered first, and each
-- start_finished enters the same one again, so the batch never leaves the caller's context.
create or replace function run.start_finished_batch(p_tenant uuid, p_env uuid, p_scope uuid, p_async boolean, p_runs jsonb)
  returns setof run.executions
  language plpgsql
as $$
  declare
    r jsonb;
  begin
    perform run.enter_tenant(p_tenant, p_env, p_scope, p_async);
    for r in select value from jsonb_array_elements(p_runs) loop
      return query select * from run.start_finished(p_tenant, p_env, p_scope, p_async,
        (r ->> 'id')::uuid, (r ->> 'workflow')::uuid, r -> 'input', r ->> 'trigger_type', r ->> 'trigger_id',
        (r ->> 'parent')::uuid, r ->> 'parent_path', r ->> 'idempotency_key', r ->> 'request_hash',
        (r ->> 'default_timeout_seconds')::integer, r ->> 'worker', (r ->> 'lease_seconds')::double precision,
        r ->> 'request_id', nullif(r -> 'usage', 'null'), (r ->> 'version')::integer, (r ->> 'started_at')::timestamptz,
        nullif(r -> 'steps', 'null'), nullif(r -> 'logs', 'null'), r -> 'settle');
    end loop;
  end
$$;
