import type { EntityManager } from 'typeorm';
import type { DueExecution, ExecutionRow } from '../engine/execution.records.js';

/**
 * The queries that cross tenants: the reconciler's scans and retention. Their managers come from
 * SystemDb (the system role, no RLS), which names and logs every use.
 */
export const systemExecutionsRepository = {
  async due(m: EntityManager): Promise<DueExecution[]> {
    return await m.query<DueExecution[]>(
      `(select id, tenant_id, environment_id, scope_id, request_id, 'wake' as reason from run.executions where status = 'waiting' and wake_at <= now() limit 500)
       union all
       (select id, tenant_id, environment_id, scope_id, request_id, 'lost' from run.executions where status = 'queued' and created_at < now() - interval '5 seconds' limit 500)
       union all
       (select id, tenant_id, environment_id, scope_id, request_id, 'lease' from run.executions where status = 'running' and lease_until < now() limit 500)`,
    );
  },

  /** Waiting and queued runs have no worker to notice their deadline. */
  async timeOutOverdue(m: EntityManager): Promise<ExecutionRow[]> {
    const [rows] = await m.query<[ExecutionRow[], number]>(
      `update run.executions set status = 'timed_out', finished_at = now(), wake_at = null,
              error = jsonb_build_object('code', 'timed_out', 'message', 'The execution took longer than its timeout', 'step_id', null)
        where status in ('waiting', 'queued') and timeout_at <= now()
       returning id, tenant_id, environment_id, scope_id, workflow_id, status, error, request_id`,
    );
    return rows;
  },

  /**
   * Deletes up to `batch` finished executions (with their steps and logs) older than the
   * retention period: the workflow's settings.retention_days, else `defaultDays`. Says how many.
   */
  async prune(m: EntityManager, defaultDays: number, batch: number): Promise<number> {
    const [, count] = await m.query<[unknown, number]>(
      `with doomed as (
         select x.tenant_id, x.id from run.executions x
           join run.workflow_versions v on v.tenant_id = x.tenant_id and v.workflow_id = x.workflow_id and v.version = x.workflow_version
          where x.finished_at < now() - make_interval(days => coalesce((v.definition -> 'settings' ->> 'retention_days')::int, $1))
          limit $2),
       steps as (delete from run.execution_steps s using doomed d where s.tenant_id = d.tenant_id and s.execution_id = d.id),
       logs as (delete from run.execution_logs l using doomed d where l.tenant_id = d.tenant_id and l.execution_id = d.id)
       delete from run.executions e using doomed d where e.tenant_id = d.tenant_id and e.id = d.id`,
      [defaultDays, batch],
    );
    return count;
  },
};
