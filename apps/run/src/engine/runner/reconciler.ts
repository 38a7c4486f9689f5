import { Inject, Injectable } from '@nestjs/common';
import { PeriodicJob } from '@platform/service';
import { RUN_CONFIG, type RunConfig } from '../../config/run.config.js';
import { EXECUTION_STORE, type ExecutionStore } from '../engine.ports.js';
import { ExecutionEvents } from '../execution.events.js';
import type { DueExecution } from '../execution.records.js';
import { ExecutionQueue } from './execution.queue.js';

/** Why an execution was re-sent, as `reconciler_repairs_total`'s repair: a delay or retry due, a wake-up lost, a lease expired. */
const REASONS: readonly DueExecution['reason'][] = ['wake', 'lost', 'lease'];

/**
 * JetStream only wakes workers; this makes sure every execution is woken. It re-sends executions
 * whose wake-up was lost (queued too long), whose worker died (lease expired) and whose delay or
 * retry is due, and times out waiting runs past their deadline. Any replica may run it: claims
 * are exclusive, and duplicates of a wake-up are harmless.
 */
@Injectable()
export class Reconciler extends PeriodicJob {
  constructor(
    @Inject(EXECUTION_STORE) private readonly store: ExecutionStore,
    private readonly queue: ExecutionQueue,
    private readonly events: ExecutionEvents,
    @Inject(RUN_CONFIG) private readonly config: RunConfig,
  ) {
    super({ name: 'Reconciler', intervalMs: config.RUN_RECONCILE_INTERVAL_MS });
  }

  protected async pass(): Promise<void> {
    const overdue = await this.store.timeOutOverdue();
    for (const timedOut of overdue) this.events.finished(timedOut);
    this.repaired('timed_out', overdue.length);
    const due = await this.store.due();
    for (const reason of REASONS) this.repaired(reason, due.filter((d) => d.reason === reason).length);
    // The token changes every interval, so a re-send is not dropped as a duplicate of the last one.
    const slot = Math.floor(Date.now() / this.config.RUN_RECONCILE_INTERVAL_MS);
    await Promise.all(due.map((d) => this.queue.enqueue(d, `reconcile:${slot}`)));
    if (due.some((d) => d.reason !== 'wake')) this.logger.log(`re-sent ${due.length} execution(s): ${[...new Set(due.map((d) => d.reason))].join(', ')}`);
  }
}
