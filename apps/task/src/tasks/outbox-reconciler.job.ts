import { Inject, Injectable } from '@nestjs/common';
import { SystemDb } from '@platform/db';
import { PeriodicJob } from '@platform/service';
import { TASK_CONFIG, type TaskConfig } from '../config/task.config.js';
import { OutcomePublisher } from './outcome-publisher.js';
import { tasksRepository, type OutcomeFailure } from './tasks.repository.js';

/**
 * Publishes the outcomes of decided tasks that did not reach the run service's queue (NATS down
 * at the moment, a crash between commit and publish). The message id per task makes a second
 * publish of one that did arrive a no-op, and the run service records an outcome once.
 *
 * Bounded: each failed publish counts on the row; one NATS refuses for good (too large) is given
 * up at once, one still failing TASK_OUTBOX_GIVE_UP_MS after the decision at its next failure.
 * A given-up row leaves the scan and is logged once at error; the execution waiting for it ends
 * at its own deadline (`timed_out`). Every row of a pass is tried: one row that fails does not
 * hold back the others (an agent outcome whose stream is missing, a run outcome that is fine).
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
    const failures: OutcomeFailure[] = [];
    for (const row of rows) {
      const delivery = await this.publisher.deliver(row);
      if (!delivery.delivered) failures.push({ tenantId: row.tenant_id, id: row.id, error: delivery.error, permanent: delivery.permanent });
    }
    this.repaired('outcome_republished', rows.length - failures.length);
    if (!failures.length) return;
    const recorded = await this.system.run('task outbox: failed publishes', (m) =>
      tasksRepository.outcomeFailed(m, failures, this.config.TASK_OUTBOX_GIVE_UP_MS),
    );
    const givenUp = recorded.filter((r) => r.given_up);
    for (const r of givenUp)
      this.logger.error(
        `gave up publishing the outcome of task ${r.id} (tenant ${r.tenant_id}) after ${r.outcome_attempts} attempt(s): ${r.outcome_error}; ` +
          'its execution ends at its deadline (timed_out); the row keeps outcome_failed_at',
      );
    this.repaired('given_up', givenUp.length);
  }
}
