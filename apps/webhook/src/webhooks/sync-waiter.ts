import { Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { Subscription } from '@nats-io/transport-node';
import type { TenantContext } from '@platform/db';
import { Bus, messageContext, RunSubjects, type ExecutionStatusEvent } from '@platform/messaging';

interface Waiter {
  tenantId: string;
  resolve: (event: ExecutionStatusEvent) => void;
}

const TERMINAL = [RunSubjects.executionCompleted, RunSubjects.executionFailed, RunSubjects.executionCancelled, RunSubjects.executionTimedOut] as const;

/**
 * Sync-mode webhooks wait for their run's terminal event (every replica listens: the replica that
 * holds the HTTP request is the one that must hear it). A run that outlives the time-out is
 * answered 202 with its id; it keeps running.
 */
@Injectable()
export class SyncWaiter implements OnModuleInit, OnModuleDestroy {
  private readonly waiters = new Map<string, Waiter>();
  /**
   * Terminal events nobody waited for yet, briefly: a fast run can finish before its start's
   * answer has reached the delivery that waits for it. Only runs this replica started are kept.
   */
  private readonly recent = new Map<string, { tenantId: string; event: ExecutionStatusEvent; at: number }>();
  private readonly started = new Map<string, number>();
  private subscriptions: Subscription[] = [];

  constructor(private readonly bus: Bus) {}

  onModuleInit(): void {
    this.subscriptions = TERMINAL.map((subject) =>
      this.bus.subscribeAll(subject, (event) => {
        const id = event.data.executionId;
        const waiter = this.waiters.get(id);
        // Only the run's own tenant may answer it.
        if (waiter && event.context.tenantId === waiter.tenantId) waiter.resolve(event.data);
        else if (!waiter && this.started.has(id) && event.context.tenantId)
          this.recent.set(id, { tenantId: event.context.tenantId, event: event.data, at: Date.now() });
      }),
    );
  }

  onModuleDestroy(): void {
    for (const s of this.subscriptions) s.unsubscribe();
  }

  /** Called as soon as a sync delivery's run id is known, before anything else is awaited. */
  expect(runId: string): void {
    const now = Date.now();
    this.started.set(runId, now);
    if (this.started.size > 10_000 || this.recent.size > 10_000) {
      for (const [id, at] of this.started) if (now - at > 120_000) this.started.delete(id);
      for (const [id, r] of this.recent) if (now - r.at > 120_000) this.recent.delete(id);
    }
  }

  async wait(owner: TenantContext, runId: string, deliveryId: string, timeoutMs: number): Promise<{ status: number; body: Record<string, unknown> }> {
    const early = this.recent.get(runId);
    this.recent.delete(runId);
    this.started.delete(runId);
    const event =
      early && early.tenantId === owner.tenantId
        ? early.event
        : await new Promise<ExecutionStatusEvent | null>((resolve) => {
            const timer = setTimeout(() => {
              this.waiters.delete(runId);
              resolve(null);
            }, timeoutMs);
            this.waiters.set(runId, {
              tenantId: owner.tenantId,
              resolve: (e) => {
                clearTimeout(timer);
                this.waiters.delete(runId);
                resolve(e);
              },
            });
          });
    if (!event) return { status: 202, body: { run_id: runId, delivery_id: deliveryId, status: 'running' } };
    return {
      status: 200,
      body: { run_id: runId, delivery_id: deliveryId, status: event.status, output: await this.outputOf(owner, runId), error: event.error ?? null },
    };
  }

  /** Events do not carry outputs (they may be large): the run service answers it once it is final. */
  private async outputOf(owner: TenantContext, runId: string): Promise<unknown> {
    try {
      return (await this.bus.request(RunSubjects.executionsGet, { executionId: runId }, messageContext(owner))).output;
    } catch {
      // The run finished; its output is one GET /run/executions/{id} away if the run service is busy.
      return null;
    }
  }
}
