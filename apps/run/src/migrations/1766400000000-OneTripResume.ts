import type { MigrationInterface, QueryRunner } from 'typeorm';
import { ResolveTaskStep1766000002000 } from './1766000002000-ResolveTaskStep.js';

const NONE = `null::run.executions, null::text, null::jsonb`;

/**
 * Resuming an execution in one round trip (tenant functions, see EngineHotPath):
 * - run.claim_execution claims it and reads what earlier runs recorded: every wake-up (a delay
 *   ended, a child finished) used to take two transactions of three round trips each. The step
 *   records come as JSON, only for an execution that ran before (a queued one has none).
 * - run.resolve_task_step, given a worker, also claims the execution it woke: a task's outcome
 *   is recorded and its run taken in the same statement (without a worker, it wakes it as before).
 */
export class OneTripResume1766400000000 implements MigrationInterface {
  name = 'OneTripResume1766400000000';

  async up(q: QueryRunner): Promise<void> {
    // Under the caller's RLS context (security invoker), from a function that entered it.
    await q.query(`create function run.step_records_json(p_id uuid) returns jsonb language plpgsql stable security invoker as $$
      begin
        return (select coalesce(jsonb_agg(to_jsonb(s) order by s.id), '[]'::jsonb)
                  from (select id, path, step_id, type, status, attempt, input, output, error, wake_at, started_at, finished_at
                          from run.execution_steps where execution_id = p_id) s);
      end $$`);

    await q.query(`create function run.claim_execution(p_tenant uuid, p_env uuid, p_scope uuid, p_async boolean, p_id uuid, p_worker text, p_lease_seconds double precision)
      returns table (claimed run.executions, prior_status text, step_records jsonb) language plpgsql volatile security invoker as $$
      declare
        v_prior text;
      begin
        perform run.enter_tenant(p_tenant, p_env, p_scope, p_async);
        -- The subquery reads the status before this update; the WHERE is re-checked on the locked
        -- row, so two workers never both claim.
        update run.executions e set status = 'running', lease_owner = p_worker, lease_until = now() + make_interval(secs => p_lease_seconds), wake_at = null,
               started_at = coalesce(e.started_at, now())
          from (select x.tenant_id, x.id, x.status as before_status from run.executions x where x.id = p_id) p
         where e.tenant_id = p.tenant_id and e.id = p.id
           and (e.status = 'queued' or (e.status = 'waiting' and e.wake_at <= now()) or (e.status = 'running' and e.lease_until < now()))
        returning p.before_status into v_prior;
        if not found then
          return;
        end if;
        return query
          select x, v_prior, case when v_prior = 'queued' then null else run.step_records_json(p_id) end
            from run.executions x where x.id = p_id;
      end $$`);

    await q.query(`drop function run.resolve_task_step(uuid, uuid, uuid, boolean, uuid, text, uuid, text, jsonb, jsonb)`);
    await q.query(`create function run.resolve_task_step(p_tenant uuid, p_env uuid, p_scope uuid, p_async boolean,
        p_execution uuid, p_path text, p_id uuid, p_status text, p_output jsonb, p_error jsonb, p_worker text, p_lease_seconds double precision)
      returns table (state text, scope_id uuid, request_id text, claimed run.executions, prior_status text, step_records jsonb)
      language plpgsql volatile security invoker as $$
      #variable_conflict use_column
      declare
        w record;
        e record;
      begin
        perform run.enter_tenant(p_tenant, p_env, p_scope, p_async);
        select x.status, x.scope_id, x.request_id into e from run.executions x where x.id = p_execution;
        if not found then
          return query select 'done'::text, null::uuid, null::text, ${NONE};
          return;
        end if;
        select s.step_id, s.type, s.attempt into w from run.execution_steps s
         where s.execution_id = p_execution and s.path = p_path and s.status = 'waiting' order by s.id desc limit 1;
        if not found then
          if e.status in ('succeeded', 'failed', 'cancelled', 'timed_out') or exists (
               select 1 from run.execution_steps s where s.execution_id = p_execution and s.path = p_path and s.status in ('succeeded', 'skipped', 'failed')) then
            return query select 'done'::text, e.scope_id, e.request_id, ${NONE};
          else
            return query select 'early'::text, e.scope_id, e.request_id, ${NONE};
          end if;
          return;
        end if;
        insert into run.execution_steps (tenant_id, environment_id, id, scope_id, execution_id, path, step_id, type, status, attempt, output, error, started_at, finished_at)
        values (p_tenant, p_env, p_id, e.scope_id, p_execution, p_path, w.step_id, w.type, p_status, w.attempt, p_output, p_error, now(), now())
        on conflict (tenant_id, execution_id, path) where status in ('succeeded', 'skipped') do nothing;
        if not found then
          return query select 'done'::text, e.scope_id, e.request_id, ${NONE};
          return;
        end if;
        if p_worker is null then
          update run.executions set wake_at = now() where id = p_execution and status = 'waiting';
          return query select 'resolved'::text, e.scope_id, e.request_id, ${NONE};
          return;
        end if;
        -- The wait is over, so the execution is due: this worker takes it in the same update (one
        -- new row version, not one to wake it and another to claim it).
        update run.executions x set status = 'running', lease_owner = p_worker, lease_until = now() + make_interval(secs => p_lease_seconds),
               wake_at = null, started_at = coalesce(x.started_at, now())
         where x.id = p_execution and x.status = 'waiting';
        if not found then
          -- Not waiting (another worker runs it meanwhile, or its lease ran out: the caller wakes it).
          return query select 'resolved'::text, e.scope_id, e.request_id, ${NONE};
          return;
        end if;
        return query select 'resolved'::text, e.scope_id, e.request_id, x, 'waiting'::text, run.step_records_json(p_execution)
          from run.executions x where x.id = p_execution;
      end $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`drop function run.resolve_task_step(uuid, uuid, uuid, boolean, uuid, text, uuid, text, jsonb, jsonb, text, double precision)`);
    await new ResolveTaskStep1766000002000().up(q);
    await q.query(`drop function run.claim_execution`);
    await q.query(`drop function run.step_records_json`);
  }
}
