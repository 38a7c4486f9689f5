import type { MigrationInterface, QueryRunner } from 'typeorm';

const PARAMETERS = `p_tenant uuid, p_env uuid, p_scope uuid, p_async boolean,
        p_id uuid, p_workflow uuid, p_input jsonb, p_trigger_type text, p_trigger_id text,
        p_parent uuid, p_parent_path text, p_idempotency_key text, p_request_hash text,
        p_default_timeout_seconds int, p_worker text, p_lease_seconds double precision, p_request_id text`;

const INSERT_EXECUTION = `insert into run.executions (tenant_id, environment_id, id, scope_id, workflow_id, workflow_version, status, input, trigger_type, trigger_id,
                   parent_execution_id, parent_step_path, idempotency_key, request_hash, timeout_at, lease_owner, lease_until, started_at, request_id)
            select p_tenant, p_env, p_id, p_scope, w.id, w.current_version, case when p_worker is null then 'queued' else 'running' end, p_input,
                   p_trigger_type, p_trigger_id, p_parent, p_parent_path, p_idempotency_key, p_request_hash,
                   now() + make_interval(secs => coalesce((v.definition -> 'settings' ->> 'timeout_seconds')::int, p_default_timeout_seconds)),
                   p_worker, case when p_worker is null then null else now() + make_interval(secs => p_lease_seconds) end,
                   case when p_worker is null then null else now() end, p_request_id
              from run.workflows w
              join run.workflow_versions v on v.tenant_id = w.tenant_id and v.workflow_id = w.id and v.version = w.current_version
             where w.id = p_workflow and w.deleted_at is null and w.status = 'active'
            returning *`;

/**
 * A started run is metered in the start's own transaction (the usage outbox, see
 * @platform/service UsageOutbox): run.start_execution takes the run's usage fact as a last
 * parameter, the outbox row as JSON (usageOutboxJson), and writes it only when the execution row
 * is made, still in one round trip. Null for starts that are not metered (a subworkflow's child).
 */
export class MeteredStart1766300001000 implements MigrationInterface {
  name = 'MeteredStart1766300001000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`drop function run.start_execution(${PARAMETERS})`);
    await q.query(`create function run.start_execution(${PARAMETERS}, p_usage jsonb)
      returns setof run.executions language plpgsql volatile security invoker as $$
      begin
        perform run.enter_tenant(p_tenant, p_env, p_scope, p_async);
        return query
          with inserted as (${INSERT_EXECUTION}),
          metered as (
            insert into run.usage_outbox (tenant_id, environment_id, scope_id, event_id, metric, quantity, key_mode, occurred_at, request_id, actor)
            select u.tenant_id, u.environment_id, u.scope_id, u.event_id, u.metric, u.quantity, u.key_mode, u.occurred_at, u.request_id, u.actor
              from inserted, jsonb_to_record(p_usage) as u(tenant_id uuid, environment_id uuid, scope_id uuid, event_id uuid, metric text, quantity bigint,
                   key_mode text, occurred_at timestamptz, request_id text, actor text)
             where p_usage is not null
            on conflict do nothing)
          select * from inserted;
      end $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`drop function run.start_execution(${PARAMETERS}, p_usage jsonb)`);
    await q.query(`create function run.start_execution(${PARAMETERS})
      returns setof run.executions language plpgsql volatile security invoker as $$
      begin
        perform run.enter_tenant(p_tenant, p_env, p_scope, p_async);
        return query
          with inserted as (${INSERT_EXECUTION})
          select * from inserted;
      end $$`);
  }
}
