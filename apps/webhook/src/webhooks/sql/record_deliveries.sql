-- Records a batch of deliveries of one tenant environment in one statement (one commit for all:
-- concurrent requests share it). For each item it answers the delivery recorded, or the first
-- delivery for a duplicate key, or nothing when the webhook is gone, disabled or changed since the
-- caller read it. A tenant function (libs/db tenant-functions.ts): its first four parameters are the context and
-- its first statement enters it, so a call is one round trip under row-level security.
create or replace function webhook.record_deliveries(
  p_tenant uuid, p_env uuid, p_scope uuid, p_async boolean, p_versions bigint[],
  p_ids uuid[], p_duplicate_ids uuid[], p_webhooks uuid[], p_workflows uuid[],
  p_row_scopes uuid[], p_methods text[], p_headers jsonb[], p_bodies bytea[],
  p_content_types text[], p_outcomes text[], p_reasons text[], p_statuses integer[],
  p_dedupes text[], p_run_inputs jsonb[], p_runs uuid[])
  returns table(idx integer, id uuid, outcome text, run_id uuid, started_at timestamp with time zone, start_error text)
  language plpgsql
as $$
  #variable_conflict use_column
  declare
    i int;
    r record;
  begin
    perform webhook.enter_tenant(p_tenant, p_env, p_scope, p_async);
    for i in 1 .. coalesce(array_length(p_ids, 1), 0) loop
      continue when not exists (select 1 from webhook.webhooks w where w.id = p_webhooks[i] and w.enabled and w.version = p_versions[i]);
      insert into webhook.deliveries as d (tenant_id, environment_id, scope_id, id, webhook_id, workflow_id, method, headers, body, content_type, outcome, reason, status_code, dedupe_key, run_input, run_id)
      values (p_tenant, p_env, p_row_scopes[i], p_ids[i], p_webhooks[i], p_workflows[i], p_methods[i], p_headers[i], p_bodies[i], p_content_types[i],
              p_outcomes[i], p_reasons[i], p_statuses[i], p_dedupes[i], p_run_inputs[i], p_runs[i])
      on conflict (tenant_id, webhook_id, dedupe_key) where dedupe_key is not null do nothing
      returning d.id, d.outcome, d.run_id, d.started_at, d.start_error into r;
      if not found then
        select d.id, d.outcome, d.run_id, d.started_at, d.start_error into r from webhook.deliveries d where d.webhook_id = p_webhooks[i] and d.dedupe_key = p_dedupes[i];
        insert into webhook.deliveries (tenant_id, environment_id, scope_id, id, webhook_id, workflow_id, method, headers, body, content_type, outcome, reason, status_code)
        values (p_tenant, p_env, p_row_scopes[i], p_duplicate_ids[i], p_webhooks[i], p_workflows[i], p_methods[i], p_headers[i], p_bodies[i], p_content_types[i],
                'duplicate', 'duplicate of ' || r.id, 200);
      end if;
      idx := i; id := r.id; outcome := r.outcome; run_id := r.run_id; started_at := r.started_at; start_error := r.start_error;
      return next;
    end loop;
  end
$$;
