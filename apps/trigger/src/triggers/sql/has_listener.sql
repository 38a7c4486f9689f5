-- Whether a tenant has an enabled trigger listening for an event or a webhook: every run that ends
-- and every delivery announced reaches the trigger service, and most tenants have no trigger for
-- it. A tenant function (libs/db tenant-functions.ts): its first four parameters are the context and
-- its first statement enters it, so a call is one round trip under row-level security.
create or replace function trigger.has_listener(
  p_tenant uuid, p_env uuid, p_scope uuid, p_async boolean, p_event_type text,
  p_webhook uuid)
  returns boolean
  language plpgsql
  stable
as $$
  begin
    perform trigger.enter_tenant(p_tenant, p_env, p_scope, p_async);
    if p_webhook is not null then
      return exists (select 1 from trigger.triggers where type = 'webhook' and enabled and webhook_id = p_webhook);
    end if;
    return exists (select 1 from trigger.triggers where type = 'event' and enabled and event_type = p_event_type);
  end
$$;
