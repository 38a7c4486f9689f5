-- Counts a failed attempt at starting each delivery's run, for a batch: the run service failed on
-- it, or the start could not be sent. The attempt that reaches p_max_attempts records the last
-- error as the delivery's start_error, which ends the retries (the reconciler takes only
-- deliveries without one) and shows in the delivery log as its reason. A delivery started or
-- failed meanwhile is left as it is. A tenant function (libs/db tenant-functions.ts): its first
-- four parameters are the context and its first statement enters it.
create or replace function webhook.record_start_failures(
  p_tenant uuid, p_env uuid, p_scope uuid, p_async boolean, p_ids uuid[], p_errors text[], p_max_attempts integer)
  returns void
  language plpgsql
as $$
  begin
    perform webhook.enter_tenant(p_tenant, p_env, p_scope, p_async);
    for i in 1 .. coalesce(array_length(p_ids, 1), 0) loop
      update webhook.deliveries d
         set start_attempts = d.start_attempts + 1,
             start_error = case when d.start_attempts + 1 >= p_max_attempts
                                then format('run not started after %s attempts: %s', d.start_attempts + 1, p_errors[i]) end
       where d.tenant_id = p_tenant and d.id = p_ids[i] and d.started_at is null and d.start_error is null;
    end loop;
  end
$$;
