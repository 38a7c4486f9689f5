import type { MigrationInterface, QueryRunner } from 'typeorm';
import { enterTenantFunctionStatements } from '@platform/db';

const USAGE_RECORD = `tenant_id uuid, environment_id uuid, scope_id uuid, event_id uuid, metric text, quantity bigint, key_mode text,
  occurred_at timestamptz, request_id text, actor text, notification_ids uuid[]`;

/**
 * The three writes of every notification as tenant functions (see libs/db tenant-functions): one
 * round trip each instead of a transaction of three or four.
 * - `accept` stores a batch of sends with usage facts counting those it stored (the outbox), and
 *   answers the stored ones: a send whose idempotency key exists already is not in the answer.
 * - `claim_deliveries` and `record_attempts` find each row by its whole primary key, one statement
 *   per id. A statement over the id array (`id = any(...)`, or a join with `unnest`) leaves the
 *   choice of index to estimates, and on a table without statistics yet (a new database, the first
 *   minute of a busy one) the planner takes the tenant's history index and reads every row of the
 *   tenant for each batch.
 */
export class NotificationHotPath1766500000000 implements MigrationInterface {
  name = 'NotificationHotPath1766500000000';

  async up(q: QueryRunner): Promise<void> {
    for (const statement of enterTenantFunctionStatements('notification')) await q.query(statement);
    // p_usage: the facts as usage outbox rows (usageOutboxJson), each with the ids of the sends it
    // counts: its quantity is the number of them stored, and a fact none of them was is not written.
    await q.query(`create function notification.accept(p_tenant uuid, p_env uuid, p_scope uuid, p_async boolean,
        p_ids uuid[], p_channels uuid[], p_kinds text[], p_sources text[], p_recipients jsonb[], p_target_ivs bytea[], p_target_ciphertexts bytea[],
        p_target_tags bytea[], p_subjects text[], p_templates text[], p_contents jsonb[], p_statuses text[], p_attempts jsonb[], p_keys text[],
        p_hashes text[], p_usage jsonb)
      returns table (id uuid, status text)
      language plpgsql volatile security invoker as $$
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
              from jsonb_to_recordset(p_usage) as u(${USAGE_RECORD}),
                   lateral (select count(*) as stored from inserted i where i.id = any(u.notification_ids)) c
             where c.stored > 0
            on conflict do nothing)
          select i.id, i.status from inserted i;
      end $$`);
    // Only what an attempt needs; a notification no longer owed one (a duplicate work item, or one
    // another worker holds under a live lease) is not in the answer.
    await q.query(`create function notification.claim_deliveries(p_tenant uuid, p_env uuid, p_scope uuid, p_async boolean, p_ids uuid[], p_lease_ms float8)
      returns table (id uuid, channel_id uuid, kind text, recipients jsonb, target_iv bytea, target_ciphertext bytea, target_tag bytea, content jsonb, attempt_count integer)
      language plpgsql volatile security invoker as $$
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
      end $$`);
    await q.query(`create function notification.record_attempts(p_tenant uuid, p_env uuid, p_scope uuid, p_async boolean,
        p_ids uuid[], p_statuses text[], p_attempts jsonb[], p_next timestamptz[])
      returns void language plpgsql volatile security invoker as $$
      begin
        perform notification.enter_tenant(p_tenant, p_env, p_scope, p_async);
        for i in 1 .. coalesce(array_length(p_ids, 1), 0) loop
          update notification.notifications n
             set status = p_statuses[i], attempts = n.attempts || jsonb_build_array(p_attempts[i]), attempt_count = n.attempt_count + 1,
                 next_attempt_at = p_next[i], lease_until = null, updated_at = now(),
                 delivered_at = case when p_statuses[i] = 'delivered' then now() else n.delivered_at end
           where n.tenant_id = p_tenant and n.id = p_ids[i];
        end loop;
      end $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`drop function notification.record_attempts, notification.claim_deliveries, notification.accept, notification.enter_tenant`);
  }
}
