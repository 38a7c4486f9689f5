-- A start's usage fact (p_usage, or nothing when null) written to the outbox in the start's
-- transaction, published after the commit (libs/service usage-outbox). A repeat of its event id
-- is dropped.
create or replace function run.meter_start(p_usage jsonb)
  returns void
  language plpgsql
as $$
  begin
    if p_usage is null then
      return;
    end if;
    insert into run.usage_outbox (tenant_id, environment_id, scope_id, event_id, metric, quantity, key_mode, occurred_at, request_id, actor)
    select u.tenant_id, u.environment_id, u.scope_id, u.event_id, u.metric, u.quantity, u.key_mode, u.occurred_at, u.request_id, u.actor
      from jsonb_to_record(p_usage) as u(tenant_id uuid, environment_id uuid, scope_id uuid, event_id uuid, metric text, quantity bigint,
           key_mode text, occurred_at timestamptz, request_id text, actor text)
    on conflict do nothing;
  end
$$;
