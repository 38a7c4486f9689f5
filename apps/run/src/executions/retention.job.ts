import { Inject, Injectable } from '@nestjs/common';
import { PeriodicJob } from '@platform/service';
import { SystemDb } from '@platform/db';
import { RUN_CONFIG, type RunConfig } from '../config/run.config.js';
import { systemExecutionsRepository } from './system-executions.repository.js';

const BATCH = 1000;

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
      const count = await this.system.run('prune executions past retention', (m) => systemExecutionsRepository.prune(m, this.config.RUN_RETENTION_DAYS, BATCH));
      total += count;
      if (count < BATCH) break;
    }
    if (total) this.logger.log(`pruned ${total} execution(s)`);
    return total;
  }
}
