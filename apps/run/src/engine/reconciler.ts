import { Inject, Injectable } from '@nestjs/common';
import { PeriodicJob } from '@platform/service';
import { SystemDb } from '@platform/db';
import { RUN_CONFIG, type RunConfig } from '../config/run.config.js';
import { ExecutionEvents } from '../executions/execution.events.js';
import type { ExecutionRow } from '../executions/execution.records.js';
import { ExecutionQueue } from './work-queue.js';

interface Due {
  id: string;
  tenant_id: string;
  environment_id: string;
  scope_id: string | null;
  reason: string;
}

/**
 * JetStream only wakes workers; this makes sure every execution is woken. It re-sends executions
 * whose wake-up was lost (queued too long), whose worker died (lease expired) and whose delay or
 * retry is due, and times out waiting runs past their deadline. Any replica may run it: claims
 * are exclusive, and duplicates of a wake-up are harmless.
 */
@Injectable()
export class Reconciler extends PeriodicJob {
  constructor(
    private readonly system: SystemDb,
    private readonly queue: ExecutionQueue,
    private readonly events: ExecutionEvents,
    @Inject(RUN_CONFIG) private readonly config: RunConfig,
  ) {
    super({ name: 'Reconciler', intervalMs: config.RUN_RECONCILE_INTERVAL_MS });
  }

  protected async pass(): Promise<void> {
    await this.timeOutWaiting();
    const due = (await this.system.run(
      'find executions due to run',
      (m) =>
        m.query(
          `(select id, tenant_id, environment_id, scope_id, 'wake' as reason from run.executions where status = 'waiting' and wake_at <= now() limit 500)
           union all
           (select id, tenant_id, environment_id, scope_id, 'lost' from run.executions where status = 'queued' and created_at < now() - interval '5 seconds' limit 500)
           union all
           (select id, tenant_id, environment_id, scope_id, 'lease' from run.executions where status = 'running' and lease_until < now() limit 500)`,
        ),
      'debug',
    )) as Due[];
    // The token changes every interval, so a re-send is not dropped as a duplicate of the last one.
    const slot = Math.floor(Date.now() / this.config.RUN_RECONCILE_INTERVAL_MS);
    await Promise.all(due.map((d) => this.queue.enqueue({ executionId: d.id, tenantId: d.tenant_id, environmentId: d.environment_id, scopeId: d.scope_id }, `reconcile:${slot}`)));
    if (due.some((d) => d.reason !== 'wake')) this.logger.log(`re-sent ${due.length} execution(s): ${[...new Set(due.map((d) => d.reason))].join(', ')}`);
  }

  /** Waiting and queued runs have no worker to notice their deadline. */
  private async timeOutWaiting(): Promise<void> {
    const [rows] = (await this.system.run(
      'time out executions past their deadline',
      (m) =>
        m.query(
          `update run.executions set status = 'timed_out', finished_at = now(), wake_at = null,
                  error = jsonb_build_object('code', 'timed_out', 'message', 'The execution took longer than its timeout', 'step_id', null)
            where status in ('waiting', 'queued') and timeout_at <= now()
           returning id, tenant_id, environment_id, scope_id, workflow_id, status, error`,
        ),
      'debug',
    )) as [ExecutionRow[], number];
    for (const row of rows) this.events.finished(row);
  }
}
