-- Stores a batch of sends with the usage facts counting those it stored (the outbox), and answers
-- the stored ones: a send whose idempotency key exists already is not in the answer. p_usage: the
-- facts as usage outbox rows, each with the ids of the sends it counts; its quantity is the number
-- of them stored, and a fact none of them was is not written. A tenant function (libs/db tenant-functions.ts): its first four parameters are the context and
-- its first statement enters it, so a call is one round trip under row-level security.
create or replace function notification.accept(
  p_tenant uuid, p_env uuid, p_scope uuid, p_async boolean, p_ids uuid[], p_channels uuid[],
  p_kinds text[], p_sources text[], p_recipients jsonb[], p_target_ivs bytea[],
  p_target_ciphertexts bytea[], p_target_tags bytea[], p_subjects text[], p_templates text[],
  p_contents jsonb[], p_statuses text[], p_attempts jsonb[], p_keys text[], p_hashes text[],
  p_usage jsonb)
  returns table(id uuid, status text)
  language plpgsql
as $$
      #variable_conflict use_column
      begin
        perform notification.enter_tenant(p_tenant, p_env, p_scope, p_async);
        return query
          with inserted as (
            insert into notification.notifications as n (tenant_id, environment_id, scope_id, id, channel_id, kind, source, recipients, target_iv,
                   target_ciphertext, target_tag, subject, template, content, status, attempts, idempotency_key, request_hash, attempt_count)
            select p_tenant, p_env, p_scope, r.id, r.channel_id, r.kind, r.source, r.recipients, r.target_iv, r.target_ciphertext, r.target_tag,
                   r.subject, r.template, r.content, r.status, r.attempts, r.idempotency_key, r.request_hash, jsonb_array_length(r.attempts)
              from unnest(p_ids, p_channels, p_kinds, p_sources, p_recipients, p_target_ivs, p_target_ciphertexts, p_target_tags, p_subjects, p_templates,
                          p_contents, p_statuses, p_attempts, p_keys, p_hashes)
                as r(id, channel_id, kind, source, recipients, target_iv, target_ciphertext, target_tag, subject, template, content, status, attempts,
                     idempotency_key, request_hash)
            on conflict (tenant_id, environment_id, idempotency_key) where idempotency_key is not null do nothing
            returning n.id, n.status),
          metered as (
            insert into notification.usage_outbox (tenant_id, environment_id, scope_id, event_id, metric, quantity, key_mode, occurred_at, request_id, actor)
            select u.tenant_id, u.environment_id, u.scope_id, u.event_id, u.metric, c.stored, u.key_mode, u.occurred_at, u.request_id, u.actor
              from jsonb_to_recordset(p_usage) as u(tenant_id uuid, environment_id uuid, scope_id uuid, event_id uuid, metric text, quantity bigint, key_mode text,
  occurred_at timestamptz, request_id text, actor text, notification_ids uuid[]),
                   lateral (select count(*) as stored from inserted i where i.id = any(u.notification_ids)) c
             where c.stored > 0
            on conflict do nothing)
          select i.id, i.status from inserted i;
  end
$$;
