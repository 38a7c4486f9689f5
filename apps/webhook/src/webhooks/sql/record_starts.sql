-- Records which run each delivery started (or why it could not), for a batch. A tenant function (libs/db tenant-functions.ts): its first four parameters are the context and
-- its first statement enters it, so a call is one round trip under row-level security.
create or replace function webhook.record_starts(
  p_tenant uuid, p_env uuid, p_scope uuid, p_async boolean, p_ids uuid[], p_errors text[])
  returns void
  language plpgsql
as $$
  begin
    perform webhook.enter_tenant(p_tenant, p_env, p_scope, p_async);
    for i in 1 .. coalesce(array_length(p_ids, 1), 0) loop
      update webhook.deliveries d
         set started_at = case when p_errors[i] is null then coalesce(d.started_at, now()) else d.started_at end,
             start_error = p_errors[i], start_attempts = d.start_attempts + 1
       where d.tenant_id = p_tenant and d.id = p_ids[i];
    end loop;
  end
$$;
