import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { runInRequestContext } from '@platform/common';
import { isFinished, type ExecutionWorkItem } from '@platform/messaging';
import { RUN_CONFIG, type RunConfig } from '../../config/run.config.js';
import { EXECUTION_STORE, type ExecutionStore } from '../engine.ports.js';
import { runContext, tenantOf, type Claim, type ClaimedExecution, type ExecutionRef, type RunAhead, type StartResult } from '../execution.records.js';
import { ExecutionQueue } from './execution.queue.js';
import { ExecutionRunner } from './execution.runner.js';
import { PureRuns } from './pure-runs.js';
import type { WakeUp } from './wake-up.js';
import { WorkerIdentity } from './worker.identity.js';

/**
 * Decides where a run goes. With a free slot here (RUN_INLINE_CONCURRENCY), it runs in this
 * process at once: a start is inserted already claimed by this worker (no work item, no second
 * claim), a wake-up is claimed here. Past the limit, or while shutting down, it goes to the
 * JetStream queue, where any replica takes it; and if this process dies, the lease expires and
 * the reconciler hands the run to another worker. What a run leaves to wake comes back here.
 */
@Injectable()
export class RunDispatcher implements OnModuleDestroy {
  private readonly logger = new Logger(RunDispatcher.name);
  private readonly limit: number;
  private active = 0;
  private draining = false;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly ahead: RunAhead = (draft) => this.pureRuns.runAhead(draft);

  constructor(
    @Inject(EXECUTION_STORE) private readonly store: ExecutionStore,
    private readonly queue: ExecutionQueue,
    private readonly runner: ExecutionRunner,
    private readonly worker: WorkerIdentity,
    private readonly pureRuns: PureRuns,
    @Inject(RUN_CONFIG) config: RunConfig,
  ) {
    this.limit = config.RUN_INLINE_CONCURRENCY;
  }

  /**
   * A start: `insert` commits the row, claimed by this worker when a slot is free here; the run
   * then begins after the caller's answer is sent. With the slot comes `ahead`: a workflow of
   * pure steps may be run before its row and written settled with it (PureRuns), announced here.
   * Otherwise a work item.
   */
  async start(insert: (claim: Claim | null, ahead: RunAhead | null) => Promise<StartResult>): Promise<StartResult> {
    const here = this.reserve();
    let handed = false;
    try {
      const result = await insert(here ? this.worker.claim : null, here ? this.ahead : null);
      if (result.created) {
        this.pureRuns.started(result.execution);
        if (here && isFinished(result.execution.status)) {
          this.pureRuns.announce(result.execution);
        } else if (here) {
          this.hand({ ...result.execution, previous_status: 'queued' });
          handed = true;
        } else {
          await this.queue.enqueue(result.execution, 'start');
        }
      }
      return result;
    } finally {
      if (here && !handed) this.active--;
    }
  }

  /**
   * Work that can claim the execution it wakes as it goes (a task's outcome recorded): given this
   * worker's claim when a slot is free here, and what it claimed runs here at once.
   */
  async resume<T extends { claimed?: ClaimedExecution }>(work: (claim: Claim | null) => Promise<T | undefined>): Promise<T | undefined> {
    const here = this.reserve();
    let handed = false;
    try {
      const result = await work(here ? this.worker.claim : null);
      if (result?.claimed) {
        this.hand(result.claimed);
        handed = true;
      }
      return result;
    } finally {
      if (here && !handed) this.active--;
    }
  }

  /** A wake-up (a delay's end, a child's end, a decision on an approval, a new child): claimed here when a slot is free, else queued. */
  async wake(execution: ExecutionRef, token: string): Promise<void> {
    if (!this.reserve()) return this.queue.enqueue(execution, token);
    let claimed: ClaimedExecution | undefined;
    try {
      claimed = await this.store.claim(tenantOf(execution), execution.id, this.worker.claim);
    } catch (error) {
      this.active--;
      this.logger.warn(`could not claim execution ${execution.id} here, queueing it: ${(error as Error).message}`);
      return this.queue.enqueue(execution, token);
    }
    if (claimed) this.hand(claimed);
    else this.active--; // not due, finished, or another worker holds it
  }

  /** A work item from the queue (whose consumer bounds how many run at once): claimed, run, and what it woke. */
  async runQueued(item: ExecutionWorkItem, keepAlive: () => void): Promise<void> {
    const claimed = await this.store.claim(
      { tenantId: item.tenantId, environmentId: item.environmentId, scopeId: item.scopeId },
      item.executionId,
      this.worker.claim,
    );
    if (claimed) await this.run(claimed, keepAlive);
  }

  /**
   * At shutdown: new starts and wake-ups go to the queue, and runs in progress here finish (a
   * subworkflow may still start one meanwhile). A kill before the end is covered by their leases.
   */
  async onModuleDestroy(): Promise<void> {
    this.draining = true;
    while (this.inFlight.size) await Promise.allSettled([...this.inFlight]);
  }

  private reserve(): boolean {
    if (this.draining || this.active >= this.limit) return false;
    this.active++;
    return true;
  }

  /** Runs a claimed execution in the background, in a slot taken by reserve(); the slot is freed when it ends. */
  private hand(execution: ClaimedExecution): void {
    // In the run's context from here on: a failure logged below carries the run's request id too.
    const running = runInRequestContext(runContext(execution), () =>
      new Promise<void>((resolve) => setImmediate(resolve))
        .then(() => this.run(execution))
        .catch((error: unknown) => this.logger.error(`execution ${execution.id} failed in the worker: ${String(error)}`)),
    ).finally(() => {
      this.active--;
      this.inFlight.delete(running);
    });
    this.inFlight.add(running);
  }

  private async run(execution: ClaimedExecution, keepAlive?: () => void): Promise<void> {
    for (const wakeUp of await this.runner.run(execution, keepAlive)) this.schedule(wakeUp);
  }

  private schedule({ execution, token, at }: WakeUp): void {
    const wake = () =>
      void this.wake(execution, token).catch((error: unknown) => this.logger.warn(`could not wake execution ${execution.id}: ${String(error)}`));
    if (!at) return wake();
    // Just after the wake time: a claim finds the execution due only once it has passed.
    setTimeout(wake, Math.max(0, at.getTime() - Date.now()) + 5).unref();
  }
}
