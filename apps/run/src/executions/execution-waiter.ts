import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import type { Subscription } from '@nats-io/transport-node';
import type { Principal } from '@platform/auth';
import { Bus, isFinished, RunSubjects } from '@platform/messaging';
import { RUN_CONFIG, type RunConfig } from '../config/run.config.js';
import { ExecutionsService } from './executions.service.js';

const TERMINAL = [RunSubjects.executionCompleted, RunSubjects.executionFailed, RunSubjects.executionCancelled, RunSubjects.executionTimedOut] as const;

/** One request held for a run's end. */
export interface Watch {
  /** True when the run's terminal event came within `ms`; false at the limit or when `signal` aborts. */
  ended(ms: number, signal: AbortSignal): Promise<boolean>;
  /** Stops listening (always call it, in a finally). */
  stop(): void;
}

interface Listener {
  tenantId: string;
  end: () => void;
}

/**
 * Holds `GET /run/executions/{id}` with `Prefer: wait` until the run's terminal event. A replica
 * holding a read listens to every terminal event (the run may end on any replica; the one holding
 * the request must hear it), as webhooks' SyncWaiter does. A watch is registered before the
 * caller reads the execution, so a run that ends between that read and the wait is not missed.
 */
@Injectable()
export class ExecutionWaiter implements OnModuleDestroy {
  private readonly listeners = new Map<string, Set<Listener>>();
  private subscriptions?: Subscription[];
  private ready: Promise<void> = Promise.resolve();
  /** Requests held now, in all and by tenant (EXECUTION_WAIT_MAX_HELD, …_PER_TENANT). */
  private heldInAll = 0;
  private readonly heldByTenant = new Map<string, number>();

  constructor(
    private readonly bus: Bus,
    private readonly executions: ExecutionsService,
    @Inject(RUN_CONFIG) private readonly config: RunConfig,
  ) {}

  /**
   * The execution, once it is final or `waitSeconds` (capped at EXECUTION_WAIT_MAX_MS) have
   * passed, whichever comes first; at once without a wait, when it is final already, or when it is
   * not the caller's (404 as always). `applied`: the wait honoured, for `Preference-Applied`.
   */
  async get(principal: Principal, id: string, waitSeconds: number | undefined, signal: AbortSignal) {
    if (waitSeconds === undefined) return { execution: await this.executions.get(principal, id) };
    const applied = Math.min(waitSeconds, Math.floor(this.config.EXECUTION_WAIT_MAX_MS / 1000));
    // Over the bounds the preference is not applied: answered at once, without Preference-Applied.
    if (!this.hold(principal.tenantId)) return { execution: await this.executions.get(principal, id) };
    // Listen first, then read: a run that ends in between is heard.
    const watch = this.watch(principal.tenantId, id);
    try {
      await this.listen();
      const current = await this.executions.get(principal, id);
      if (applied === 0 || isFinished(current.status)) return { execution: current, applied };
      const ended = await watch.ended(applied * 1000, signal);
      // Read again either way: at the limit the status may have moved on (queued to running or waiting).
      return { execution: signal.aborted && !ended ? current : await this.executions.get(principal, id), applied };
    } finally {
      watch.stop();
      this.unhold(principal.tenantId);
    }
  }

  private hold(tenantId: string): boolean {
    const tenant = this.heldByTenant.get(tenantId) ?? 0;
    if (this.heldInAll >= this.config.EXECUTION_WAIT_MAX_HELD || tenant >= this.config.EXECUTION_WAIT_MAX_HELD_PER_TENANT) return false;
    this.heldInAll++;
    this.heldByTenant.set(tenantId, tenant + 1);
    return true;
  }

  private unhold(tenantId: string): void {
    this.heldInAll--;
    const tenant = (this.heldByTenant.get(tenantId) ?? 1) - 1;
    if (tenant > 0) this.heldByTenant.set(tenantId, tenant);
    else this.heldByTenant.delete(tenantId);
  }

  /** A start's answer with `Prefer: wait`: 200 with the finished execution when the run ended within the wait, else 202 with its status. */
  async afterStart(principal: Principal, runId: string, waitSeconds: number, signal: AbortSignal) {
    const { execution, applied } = await this.get(principal, runId, waitSeconds, signal);
    // Not held (over the bounds): the answer a start has without the header.
    return isFinished(execution.status) && applied !== undefined
      ? { status: 200, body: execution, applied }
      : { status: 202, body: { run_id: runId, status: execution.status }, applied };
  }

  onModuleDestroy(): void {
    for (const s of this.subscriptions ?? []) s.unsubscribe();
    this.subscriptions = undefined;
  }

  /**
   * Terminal events are listened to only while a request is held: a replica nobody waits on
   * receives none, so a run nobody waits for costs no extra message (apps/run/test/
   * round-trip-budget.json). The flush (one NATS round trip) makes the server know the
   * subscription before the caller reads the execution.
   */
  private listen(): Promise<void> {
    if (!this.subscriptions) {
      this.subscriptions = TERMINAL.map((subject) =>
        this.bus.subscribeAll(subject, (event) => {
          // Only the run's own tenant's event ends its wait.
          for (const listener of this.listeners.get(event.data.executionId) ?? []) if (listener.tenantId === event.context.tenantId) listener.end();
        }),
      );
      // Unflushed (a lost connection), a run ending meanwhile is seen at the end of the wait instead.
      this.ready = this.bus.connection.flush().catch(() => undefined);
    }
    return this.ready;
  }

  private release(): void {
    if (this.listeners.size) return;
    for (const s of this.subscriptions ?? []) s.unsubscribe();
    this.subscriptions = undefined;
  }

  private watch(tenantId: string, executionId: string): Watch {
    let ended = false;
    let wake: (() => void) | undefined;
    const listener: Listener = {
      tenantId,
      end: () => {
        ended = true;
        wake?.();
      },
    };
    let set = this.listeners.get(executionId);
    if (!set) this.listeners.set(executionId, (set = new Set()));
    set.add(listener);
    return {
      ended: (ms, signal) =>
        new Promise<boolean>((resolve) => {
          if (ended || signal.aborted) return resolve(ended);
          const finish = () => {
            clearTimeout(timer);
            signal.removeEventListener('abort', finish);
            resolve(ended);
          };
          const timer = setTimeout(finish, ms);
          signal.addEventListener('abort', finish, { once: true });
          wake = finish;
        }),
      stop: () => {
        set.delete(listener);
        if (set.size === 0 && this.listeners.get(executionId) === set) this.listeners.delete(executionId);
        this.release();
      },
    };
  }
}
