import type { MigrationInterface, QueryRunner } from 'typeorm';
import { enterTenantFunctionStatements } from '@platform/db';

/**
 * Whether a tenant has an enabled trigger listening for an event or a webhook, in one statement
 * (a tenant function, see libs/db tenant-functions): every run that ends and every delivery
 * announced reaches the trigger service, and most tenants have no trigger for it. Such events
 * cost one round trip instead of a transaction of three.
 */
export class ListenerLookup1766400001000 implements MigrationInterface {
  name = 'ListenerLookup1766400001000';

  async up(q: QueryRunner): Promise<void> {
    for (const statement of enterTenantFunctionStatements('trigger')) await q.query(statement);
    await q.query(`create function trigger.has_listener(p_tenant uuid, p_env uuid, p_scope uuid, p_async boolean, p_event_type text, p_webhook uuid)
      returns boolean language plpgsql stable security invoker as $$
      begin
        perform trigger.enter_tenant(p_tenant, p_env, p_scope, p_async);
        if p_webhook is not null then
          return exists (select 1 from trigger.triggers where type = 'webhook' and enabled and webhook_id = p_webhook);
        end if;
        return exists (select 1 from trigger.triggers where type = 'event' and enabled and event_type = p_event_type);
      end $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`drop function trigger.has_listener, trigger.enter_tenant`);
  }
}
