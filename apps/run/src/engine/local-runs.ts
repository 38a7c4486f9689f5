import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { Inject, Injectable } from '@nestjs/common';
import { RUN_CONFIG, type RunConfig } from '../config/run.config.js';
import type { ExecutionRow } from '../executions/execution.records.js';

export type ClaimedExecution = ExecutionRow & { previous_status: string };

/**
 * Runs this process starts itself. A start that finds a free slot here inserts the execution
 * already claimed by this worker (with a lease) and runs it at once: no work item, no second
 * claim. Past the limit, starts go to the JetStream queue, where any replica takes them; and if
 * this process dies, the lease expires and the reconciler hands the run to another worker.
 */
@Injectable()
export class LocalRuns {
  readonly workerId = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  readonly leaseMs: number;
  private readonly limit: number;
  private active = 0;
  private draining = false;
  private readonly inFlight = new Set<Promise<void>>();
  private runner?: (execution: ClaimedExecution) => Promise<void>;

  constructor(@Inject(RUN_CONFIG) config: RunConfig) {
    this.limit = config.RUN_INLINE_CONCURRENCY;
    this.leaseMs = config.RUN_LEASE_MS;
  }

  /** The engine's entry for a claimed run; until it is attached, every start is queued. */
  attach(runner: (execution: ClaimedExecution) => Promise<void>): void {
    this.runner = runner;
  }

  /** Takes a slot for a run about to be inserted; false when the queue should take it instead. */
  reserve(): boolean {
    if (!this.runner || this.draining || this.active >= this.limit) return false;
    this.active++;
    return true;
  }

  /** Gives back a slot whose run was not inserted (refused, or a repeated Idempotency-Key). */
  release(): void {
    this.active--;
  }

  /** Runs a claimed execution in the background, after the start's answer is sent; its slot is freed when it ends. */
  hand(execution: ClaimedExecution): void {
    const runner = this.runner!;
    const running = new Promise<void>((resolve) => setImmediate(resolve)).then(() => runner(execution)).finally(() => {
      this.active--;
      this.inFlight.delete(running);
    });
    this.inFlight.add(running);
  }

  /**
   * At shutdown: new starts go to the queue, and runs in progress finish (a subworkflow may still
   * start one here meanwhile). A kill before the end is covered by their leases.
   */
  async drain(): Promise<void> {
    this.draining = true;
    while (this.inFlight.size) await Promise.allSettled([...this.inFlight]);
  }
}
