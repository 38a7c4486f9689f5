import type { MigrationInterface, QueryRunner } from 'typeorm';
import { RECORD_DELIVERY_V1, RECORD_START_V1 } from './1765000001000-WebhookHotPath.js';

/** Recording run starts as this migration made it (StartsByKey replaces it, and restores it on the way down). */
export const RECORD_STARTS_BY_JOIN = `create or replace function webhook.record_starts(p_tenant uuid, p_env uuid, p_scope uuid, p_async boolean, p_ids uuid[], p_errors text[])
      returns void language plpgsql volatile security invoker as $$
      begin
        perform webhook.enter_tenant(p_tenant, p_env, p_scope, p_async);
        update webhook.deliveries d
           set started_at = case when s.error is null then coalesce(d.started_at, now()) else d.started_at end,
               start_error = s.error, start_attempts = d.start_attempts + 1
          from unnest(p_ids, p_errors) as s(id, error)
         where d.id = s.id;
      end $$`;

/**
 * Intake answers after one round trip, and runs start behind it.
 *
 * - A delivery gets its run id when it is accepted (`run_id`); `started_at` says when the run
 *   service took it. The reconciler's scan follows `started_at`.
 * - `webhooks.version` grows with every change, so a replica may verify against a cached webhook:
 *   `record_deliveries` writes one only while the webhook is enabled and still at the version the
 *   caller verified against, and answers nothing otherwise (the caller reloads and tries again).
 *   Concurrent deliveries are written together, one statement and one commit per batch.
 * - The foreign key from deliveries to webhooks goes: its check locked the one webhook row that
 *   every concurrent delivery of a burst shares. `record_deliveries` checks the webhook itself and
 *   deleting a webhook deletes its deliveries in the same transaction.
 */
export class DeferredRunStarts1765000002000 implements MigrationInterface {
  name = 'DeferredRunStarts1765000002000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`alter table webhook.webhooks add column version bigint not null default 1`);
    await q.query(`create function webhook.bump_version() returns trigger language plpgsql as $$
      begin
        new.version := old.version + 1;
        return new;
      end $$`);
    await q.query(`create trigger webhooks_version before update on webhook.webhooks for each row execute function webhook.bump_version()`);

    await q.query(`alter table webhook.deliveries add column started_at timestamptz`);
    await q.query(`update webhook.deliveries set started_at = received_at where run_id is not null`);
    // Accepted deliveries still waiting for their run get the id it will have.
    await q.query(`update webhook.deliveries set run_id = gen_random_uuid() where outcome = 'accepted' and run_id is null and start_error is null`);
    await q.query(`drop index webhook.deliveries_unstarted`);
    await q.query(
      `create index deliveries_unstarted on webhook.deliveries (received_at) where outcome = 'accepted' and started_at is null and start_error is null`,
    );
    await q.query(`alter table webhook.deliveries drop constraint deliveries_tenant_id_webhook_id_fkey`);

    await q.query(`drop function webhook.record_delivery, webhook.record_start`);
    // Replaced by record_deliveries (below), which writes many deliveries in one statement.
    // Records a batch of deliveries of one tenant environment in one statement (one commit for
    // all: concurrent requests share it). For each item it answers the delivery recorded, or the
    // first delivery for a duplicate key (what the answer needs, not the stored request), or
    // nothing when the webhook is gone, disabled or changed since the caller read it.
    await q.query(`create function webhook.record_deliveries(
        p_tenant uuid, p_env uuid, p_scope uuid, p_async boolean,
        p_versions bigint[], p_ids uuid[], p_duplicate_ids uuid[], p_webhooks uuid[], p_workflows uuid[], p_row_scopes uuid[],
        p_methods text[], p_headers jsonb[], p_bodies bytea[], p_content_types text[], p_outcomes text[], p_reasons text[],
        p_statuses int[], p_dedupes text[], p_run_inputs jsonb[], p_runs uuid[])
      returns table (idx int, id uuid, outcome text, run_id uuid, started_at timestamptz, start_error text)
      language plpgsql volatile security invoker as $$
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
      end $$`);

    // Many starts at once: a null error marks the run started, an error records why it never will.
    await q.query(RECORD_STARTS_BY_JOIN);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`drop function webhook.record_starts, webhook.record_deliveries`);
    await q.query(RECORD_DELIVERY_V1);
    await q.query(RECORD_START_V1);
    await q.query(
      `delete from webhook.deliveries d where not exists (select 1 from webhook.webhooks w where w.tenant_id = d.tenant_id and w.id = d.webhook_id)`,
    );
    await q.query(`alter table webhook.deliveries add foreign key (tenant_id, webhook_id) references webhook.webhooks (tenant_id, id) on delete cascade`);
    await q.query(`drop index webhook.deliveries_unstarted`);
    await q.query(
      `create index deliveries_unstarted on webhook.deliveries (received_at) where outcome = 'accepted' and run_id is null and start_error is null`,
    );
    await q.query(`alter table webhook.deliveries drop column started_at`);
    await q.query(`drop trigger webhooks_version on webhook.webhooks`);
    await q.query(`drop function webhook.bump_version`);
    await q.query(`alter table webhook.webhooks drop column version`);
  }
}
