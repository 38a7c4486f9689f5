-- Records the outcome of delivery attempts, each row found by its whole primary key. Delivered is
-- final: a late record of another attempt (a worker whose lease ran out) joins the history but
-- does not turn a delivered notification back to retrying, which would send it again. An attempt is
-- progress: the reconciler's count of re-queues without one starts again. A tenant function (libs/db tenant-functions.ts): its first four parameters are the context and
-- its first statement enters it, so a call is one round trip under row-level security.
create or replace function notification.record_attempts(
  p_tenant uuid, p_env uuid, p_scope uuid, p_async boolean, p_ids uuid[], p_statuses text[],
  p_attempts jsonb[], p_next timestamp with time zone[])
  returns void
  language plpgsql
as $$
  begin
    perform notification.enter_tenant(p_tenant, p_env, p_scope, p_async);
    for i in 1 .. coalesce(array_length(p_ids, 1), 0) loop
      update notification.notifications n
         set status = case when n.status = 'delivered' then n.status else p_statuses[i] end,
             attempts = n.attempts || jsonb_build_array(p_attempts[i]), attempt_count = n.attempt_count + 1, requeues = 0,
             next_attempt_at = case when n.status = 'delivered' then null else p_next[i] end, lease_until = null, updated_at = now(),
             delivered_at = case when p_statuses[i] = 'delivered' then now() else n.delivered_at end
       where n.tenant_id = p_tenant and n.id = p_ids[i];
    end loop;
  end
$$;
