import type { MigrationInterface, QueryRunner } from 'typeorm';
import { enterTenantFunctionStatements } from '@platform/db';

/**
 * The delivery worker's two writes, claiming notifications and recording their attempts, as
 * tenant functions (see libs/db tenant-functions): one round trip each instead of a transaction
 * of three. Each row is found by its whole primary key, one statement per id. A statement over the
 * id array (`id = any(...)`, or a join with `unnest`) leaves the choice of index to estimates,
 * and on a table without statistics yet (a new database, the first minute of a busy one) the
 * planner takes the tenant's history index and reads every row of the tenant for each batch.
 */
export class DeliveryByKey1766500000000 implements MigrationInterface {
  name = 'DeliveryByKey1766500000000';

  async up(q: QueryRunner): Promise<void> {
    for (const statement of enterTenantFunctionStatements('notification')) await q.query(statement);
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
    await q.query(`drop function notification.record_attempts, notification.claim_deliveries, notification.enter_tenant`);
  }
}
