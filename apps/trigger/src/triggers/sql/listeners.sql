-- What a tenant's enabled triggers listen for: each event type of its event triggers and each
-- webhook of its webhook triggers, once. The trigger service keeps this per tenant in memory
-- (listener.cache.ts): every run that ends and every delivery announced reaches it, and most
-- tenants have no trigger for them. A tenant function (libs/db tenant-functions.ts): its first
-- four parameters are the context and its first statement enters it, so a call is one round trip
-- under row-level security.
create or replace function trigger.listeners(p_tenant uuid, p_env uuid, p_scope uuid, p_async boolean)
  returns table (event_type text, webhook_id uuid)
  language plpgsql
  stable
as $$
  begin
    perform trigger.enter_tenant(p_tenant, p_env, p_scope, p_async);
    return query
      select distinct case when t.type = 'event' then t.event_type end, case when t.type = 'webhook' then t.webhook_id end
        from trigger.triggers t
       where t.enabled and t.type in ('event', 'webhook');
  end
$$;
