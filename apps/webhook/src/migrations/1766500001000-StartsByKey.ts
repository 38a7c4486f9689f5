import type { MigrationInterface, QueryRunner } from 'typeorm';
import { RECORD_STARTS_BY_JOIN } from './1765000002000-DeferredRunStarts.js';

const UPDATE_BY_KEY = `create or replace function webhook.record_starts(p_tenant uuid, p_env uuid, p_scope uuid, p_async boolean, p_ids uuid[], p_errors text[])
      returns void language plpgsql volatile security invoker as $$
      begin
        perform webhook.enter_tenant(p_tenant, p_env, p_scope, p_async);
        for i in 1 .. coalesce(array_length(p_ids, 1), 0) loop
          update webhook.deliveries d
             set started_at = case when p_errors[i] is null then coalesce(d.started_at, now()) else d.started_at end,
                 start_error = p_errors[i], start_attempts = d.start_attempts + 1
           where d.tenant_id = p_tenant and d.id = p_ids[i];
        end loop;
      end $$`;

/**
 * Recording run starts finds each delivery by its whole primary key, one statement per id. The
 * join with `unnest` left the choice of index to estimates: on a table without statistics yet the
 * planner hashed the tenant's rows from the delivery log index, reading every delivery of the
 * tenant for each batch of starts.
 */
export class StartsByKey1766500001000 implements MigrationInterface {
  name = 'StartsByKey1766500001000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(UPDATE_BY_KEY);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(RECORD_STARTS_BY_JOIN);
  }
}
