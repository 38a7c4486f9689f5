import type { MigrationInterface, QueryRunner } from 'typeorm';
import { enterTenantFunctionStatements } from '@platform/db';

/**
 * Completing a task over the API as two single-statement functions that set the tenant context
 * themselves (see libs/db tenant-functions): reading the task, then the conditional update
 * (pending → completed) that makes two concurrent completions record one, and cancelling the open
 * tasks of an execution that ended. One round trip each,
 * under row-level security like every other query.
 */
export class TaskHotPath1766000001000 implements MigrationInterface {
  name = 'TaskHotPath1766000001000';

  async up(q: QueryRunner): Promise<void> {
    for (const statement of enterTenantFunctionStatements('task')) await q.query(statement);

    await q.query(`create function task.find_task(p_tenant uuid, p_env uuid, p_scope uuid, p_async boolean, p_id uuid)
      returns setof task.tasks language plpgsql stable security invoker as $$
      begin
        perform task.enter_tenant(p_tenant, p_env, p_scope, p_async);
        return query select * from task.tasks where id = p_id;
      end $$`);

    await q.query(`create function task.complete_task(p_tenant uuid, p_env uuid, p_scope uuid, p_async boolean, p_id uuid, p_decision text, p_data jsonb, p_by text)
      returns setof task.tasks language plpgsql volatile security invoker as $$
      begin
        perform task.enter_tenant(p_tenant, p_env, p_scope, p_async);
        return query update task.tasks
           set status = 'completed', decision = p_decision, data = p_data, completed_by = p_by, completed_at = now(), outcome_pending = true, updated_at = now()
         where id = p_id and status = 'pending' returning *;
      end $$`);

    // A tenant key (allowed whoever the assignee) deciding a task without a form: the checks are
    // the update's conditions, so the usual case is one round trip; no row means "check and explain".
    await q.query(`create function task.complete_plain_task(p_tenant uuid, p_env uuid, p_scope uuid, p_async boolean, p_id uuid, p_decision text, p_data jsonb, p_by text)
      returns setof task.tasks language plpgsql volatile security invoker as $$
      begin
        perform task.enter_tenant(p_tenant, p_env, p_scope, p_async);
        return query update task.tasks
           set status = 'completed', decision = p_decision, data = p_data, completed_by = p_by, completed_at = now(), outcome_pending = true, updated_at = now()
         where id = p_id and status = 'pending' and form is null
           and ((type = 'approval' and p_decision in ('approve', 'reject')) or (type = 'form' and p_decision in ('submit', 'reject')))
         returning *;
      end $$`);

    // Every execution that ends asks this (most have no open task left): one round trip.
    await q.query(`create function task.cancel_for_execution(p_tenant uuid, p_env uuid, p_scope uuid, p_async boolean, p_execution uuid)
      returns setof task.tasks language plpgsql volatile security invoker as $$
      begin
        perform task.enter_tenant(p_tenant, p_env, p_scope, p_async);
        return query update task.tasks set status = 'cancelled', updated_at = now() where execution_id = p_execution and status = 'pending' returning *;
      end $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`drop function task.cancel_for_execution, task.complete_plain_task, task.complete_task, task.find_task, task.enter_tenant`);
  }
}
