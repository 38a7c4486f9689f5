import { Inject, Injectable } from '@nestjs/common';
import { PeriodicJob } from '@platform/service';
import { SystemDb } from '@platform/db';
import { RUN_CONFIG, type RunConfig } from '../config/run.config.js';

/**
 * Prunes finished executions (with their steps and logs) older than the retention period: the
 * workflow's settings.retention_days, else RUN_RETENTION_DAYS. Batches keep each delete short.
 */
@Injectable()
export class RetentionJob extends PeriodicJob {
  constructor(
    private readonly system: SystemDb,
    @Inject(RUN_CONFIG) private readonly config: RunConfig,
  ) {
    super({ name: 'RetentionJob', intervalMs: config.RUN_RETENTION_INTERVAL_MS });
  }

  protected pass(): Promise<number> {
    return this.prune();
  }

  async prune(): Promise<number> {
    let total = 0;
    for (;;) {
      const [, count] = (await this.system.run('prune executions past retention', (m) =>
        m.query(
          `with doomed as (
             select x.tenant_id, x.id from run.executions x
               join run.workflow_versions v on v.tenant_id = x.tenant_id and v.workflow_id = x.workflow_id and v.version = x.workflow_version
              where x.finished_at < now() - make_interval(days => coalesce((v.definition -> 'settings' ->> 'retention_days')::int, $1))
              limit 1000),
           steps as (delete from run.execution_steps s using doomed d where s.tenant_id = d.tenant_id and s.execution_id = d.id),
           logs as (delete from run.execution_logs l using doomed d where l.tenant_id = d.tenant_id and l.execution_id = d.id)
           delete from run.executions e using doomed d where e.tenant_id = d.tenant_id and e.id = d.id`,
          [this.config.RUN_RETENTION_DAYS],
        ),
      )) as [unknown, number];
      total += count;
      if (count < 1000) break;
    }
    if (total) this.logger.log(`pruned ${total} execution(s)`);
    return total;
  }
}
