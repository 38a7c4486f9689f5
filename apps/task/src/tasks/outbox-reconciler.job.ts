import { Inject, Injectable } from '@nestjs/common';
import { SystemDb } from '@platform/db';
import { PeriodicJob } from '@platform/service';
import { TASK_CONFIG, type TaskConfig } from '../config/task.config.js';
import { OutcomePublisher } from './outcome-publisher.js';
import { tasksRepository } from './tasks.repository.js';

/**
 * Publishes the outcomes of decided tasks that did not reach the run service's queue (NATS down
 * at the moment, a crash between commit and publish). The message id per task makes a second
 * publish of one that did arrive a no-op, and the run service records an outcome once.
 */
@Injectable()
export class OutboxReconcilerJob extends PeriodicJob {
  constructor(
    private readonly system: SystemDb,
    private readonly publisher: OutcomePublisher,
    @Inject(TASK_CONFIG) private readonly config: TaskConfig,
  ) {
    super({ name: 'OutboxReconcilerJob', intervalMs: 1000, runAtStart: true });
  }

  protected async pass(): Promise<void> {
    const rows = await this.system.run(
      'task outbox: outcomes not yet delivered',
      (m) => tasksRepository.undelivered(m, this.config.TASK_OUTBOX_GRACE_MS, 200),
      'debug',
    );
    for (const row of rows) await this.publisher.deliver(row);
    this.repaired('outcome_republished', rows.length);
  }
}
