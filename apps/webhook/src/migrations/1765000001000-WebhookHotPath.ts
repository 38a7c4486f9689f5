import type { MigrationInterface, QueryRunner } from 'typeorm';
import { enterTenantFunctionStatements } from '@platform/db';

/** The first record_delivery and record_start; DeferredRunStarts replaces them and puts them back on the way down. */
export const RECORD_START_V1 = `create function webhook.record_start(p_tenant uuid, p_env uuid, p_scope uuid, p_async boolean, p_id uuid, p_run uuid, p_error text)
      returns void language plpgsql volatile security invoker as $$
      begin
        perform webhook.enter_tenant(p_tenant, p_env, p_scope, p_async);
        update webhook.deliveries set run_id = coalesce(p_run, run_id), start_error = p_error, start_attempts = start_attempts + 1 where id = p_id;
      end $$`;

export const RECORD_DELIVERY_V1 = `create function webhook.record_delivery(
        p_tenant uuid, p_env uuid, p_scope uuid, p_async boolean,
        p_id uuid, p_duplicate_id uuid, p_webhook uuid, p_workflow uuid, p_row_scope uuid, p_method text, p_headers jsonb, p_body bytea,
        p_content_type text, p_outcome text, p_reason text, p_status int, p_dedupe text, p_run_input jsonb)
      returns setof webhook.deliveries language plpgsql volatile security invoker as $$
      declare
        r webhook.deliveries;
      begin
        perform webhook.enter_tenant(p_tenant, p_env, p_scope, p_async);
        insert into webhook.deliveries (tenant_id, environment_id, scope_id, id, webhook_id, workflow_id, method, headers, body, content_type, outcome, reason, status_code, dedupe_key, run_input)
        values (p_tenant, p_env, p_row_scope, p_id, p_webhook, p_workflow, p_method, p_headers, p_body, p_content_type, p_outcome, p_reason, p_status, p_dedupe, p_run_input)
        on conflict (tenant_id, webhook_id, dedupe_key) where dedupe_key is not null do nothing
        returning * into r;
        if found then
          return next r;
          return;
        end if;
        select * into r from webhook.deliveries where webhook_id = p_webhook and dedupe_key = p_dedupe;
        insert into webhook.deliveries (tenant_id, environment_id, scope_id, id, webhook_id, workflow_id, method, headers, body, content_type, outcome, reason, status_code)
        values (p_tenant, p_env, p_row_scope, p_duplicate_id, p_webhook, p_workflow, p_method, p_headers, p_body, p_content_type, 'duplicate', 'duplicate of ' || r.id, 200);
        return next r;
      end $$`;

/**
 * The receiving route's statements as functions that set the tenant context themselves (see
 * libs/db tenant-functions): finding the webhook, recording a delivery (deduplicated: a second
 * delivery with the same key is logged as a duplicate and answered with the first) and
 * recording its run are one round trip each, under row-level security like every other query.
 */
export class WebhookHotPath1765000001000 implements MigrationInterface {
  name = 'WebhookHotPath1765000001000';

  async up(q: QueryRunner): Promise<void> {
    for (const statement of enterTenantFunctionStatements('webhook')) await q.query(statement);

    await q.query(`create function webhook.find_webhook(p_tenant uuid, p_env uuid, p_scope uuid, p_async boolean, p_id uuid)
      returns setof webhook.webhooks language plpgsql stable security invoker as $$
      begin
        perform webhook.enter_tenant(p_tenant, p_env, p_scope, p_async);
        return query select * from webhook.webhooks where id = p_id;
      end $$`);

    // Returns the delivery recorded, or for a duplicate the first delivery with that key.
    await q.query(RECORD_DELIVERY_V1);

    await q.query(RECORD_START_V1);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`drop function webhook.record_start, webhook.record_delivery, webhook.find_webhook, webhook.enter_tenant`);
  }
}
