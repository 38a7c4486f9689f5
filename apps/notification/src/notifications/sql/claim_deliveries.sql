-- Claims deliveries under a lease. Only what an attempt needs; a notification no longer owed one (a
-- duplicate work item, or one another worker holds under a live lease) is not in the answer.
-- A tenant function (libs/db tenant-functions.ts): its first four parameters are the context and
-- its first statement enters it, so a call is one round trip under row-level security.
create or replace function notification.claim_deliveries(
  p_tenant uuid, p_env uuid, p_scope uuid, p_async boolean, p_ids uuid[],
  p_lease_ms double precision)
  returns table(id uuid, channel_id uuid, kind text, recipients jsonb, target_iv bytea, target_ciphertext bytea, target_tag bytea, content jsonb, attempt_count integer)
  language plpgsql
as $$
  #variable_conflict use_column
  declare
    v_id uuid;
  begin
    perform notification.enter_tenant(p_tenant, p_env, p_scope, p_async);
    foreach v_id in array p_ids loop
      return query
        update notification.notifications n
           set status = 'sending', lease_until = now() + make_interval(secs => p_lease_ms / 1000), updated_at = now()
         where n.tenant_id = p_tenant and n.id = v_id
           and (n.status = 'queued' or (n.status = 'retrying' and n.next_attempt_at <= now() + interval '50 milliseconds')
                or (n.status = 'sending' and n.lease_until < now()))
        returning n.id, n.channel_id, n.kind, n.recipients, n.target_iv, n.target_ciphertext, n.target_tag, n.content, n.attempt_count;
    end loop;
  end
$$;
