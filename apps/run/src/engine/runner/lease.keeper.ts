import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { Subscription } from '@nats-io/transport-node';
import { Bus, RunSubjects } from '@platform/messaging';
import { RUN_CONFIG, type RunConfig } from '../../config/run.config.js';
import { EXECUTION_STORE, type ExecutionStore } from '../engine.ports.js';
import type { ClaimedExecution } from '../execution.records.js';
import { AbortRun } from '../interpreter/signals.js';
import { WorkerIdentity } from './worker.identity.js';

/** A worker's hold on an execution it runs: `signal` aborts with the reason the hold ended. */
export interface Hold {
  signal: AbortSignal;
  release(): void;
}

/**
 * Keeps the lease of every execution this worker runs and ends the hold when the execution must
 * stop here: its lease could not be renewed (another worker took it over), its deadline passed,
 * or it was cancelled (every replica hears a cancel; the one running the execution aborts).
 */
@Injectable()
export class LeaseKeeper implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly held = new Map<string, AbortController>();
  private cancelSub?: Subscription;

  constructor(
    private readonly bus: Bus,
    @Inject(EXECUTION_STORE) private readonly store: ExecutionStore,
    private readonly worker: WorkerIdentity,
    @Inject(RUN_CONFIG) private readonly config: RunConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.cancelSub = this.bus.subscribeAll(RunSubjects.executionCancelRequested, (event) => {
      this.held.get(event.data.executionId)?.abort(new AbortRun('cancelled'));
    });
  }

  onModuleDestroy(): void {
    this.cancelSub?.unsubscribe();
  }

  /** `keepAlive` is called with every renewal (a queue item's own lease, for one). */
  hold(execution: ClaimedExecution, keepAlive: () => void): Hold {
    const controller = new AbortController();
    this.held.set(execution.id, controller);
    const timers: NodeJS.Timeout[] = [];
    const untilTimeout = execution.timeout_at.getTime() - Date.now();
    if (untilTimeout <= 0) controller.abort(new AbortRun('timed_out'));
    else timers.push(setTimeout(() => controller.abort(new AbortRun('timed_out')), untilTimeout));
    timers.push(
      setInterval(() => {
        keepAlive();
        void this.store
          .renewLease(execution, this.worker.claim)
          .then((owned) => (owned ? undefined : controller.abort(new AbortRun('lease_lost'))))
          .catch(() => undefined);
      }, this.config.RUN_LEASE_MS / 3),
    );
    return {
      signal: controller.signal,
      release: () => {
        timers.forEach(clearTimeout);
        this.held.delete(execution.id);
      },
    };
  }
}
