import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A human task's outcome recorded on its waiting step in one statement (a tenant function, see
 * EngineHotPath): the step's result, the execution made due, and what the caller needs to wake
 * it. `early` when the step is not waiting yet and the execution is not finished (the outcome is
 * delivered again later), `done` when there is nothing to do (recorded before, or finished).
 */
export class ResolveTaskStep1766000002000 implements MigrationInterface {
  name = 'ResolveTaskStep1766000002000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`create function run.resolve_task_step(p_tenant uuid, p_env uuid, p_scope uuid, p_async boolean,
        p_execution uuid, p_path text, p_id uuid, p_status text, p_output jsonb, p_error jsonb)
      returns table (state text, scope_id uuid, request_id text) language plpgsql volatile security invoker as $$
      #variable_conflict use_column
      declare
        w record;
        e record;
      begin
        perform run.enter_tenant(p_tenant, p_env, p_scope, p_async);
        select x.status, x.scope_id, x.request_id into e from run.executions x where x.id = p_execution;
        if not found then
          return query select 'done'::text, null::uuid, null::text;
          return;
        end if;
        select s.step_id, s.type, s.attempt into w from run.execution_steps s
         where s.execution_id = p_execution and s.path = p_path and s.status = 'waiting' order by s.id desc limit 1;
        if not found then
          if e.status in ('succeeded', 'failed', 'cancelled', 'timed_out') or exists (
               select 1 from run.execution_steps s where s.execution_id = p_execution and s.path = p_path and s.status in ('succeeded', 'skipped', 'failed')) then
            return query select 'done'::text, e.scope_id, e.request_id;
          else
            return query select 'early'::text, e.scope_id, e.request_id;
          end if;
          return;
        end if;
        insert into run.execution_steps (tenant_id, environment_id, id, scope_id, execution_id, path, step_id, type, status, attempt, output, error, started_at, finished_at)
        values (p_tenant, p_env, p_id, e.scope_id, p_execution, p_path, w.step_id, w.type, p_status, w.attempt, p_output, p_error, now(), now())
        on conflict (tenant_id, execution_id, path) where status in ('succeeded', 'skipped') do nothing;
        if not found then
          return query select 'done'::text, e.scope_id, e.request_id;
          return;
        end if;
        update run.executions set wake_at = now() where id = p_execution and status = 'waiting';
        return query select 'resolved'::text, e.scope_id, e.request_id;
      end $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`drop function run.resolve_task_step`);
  }
}
