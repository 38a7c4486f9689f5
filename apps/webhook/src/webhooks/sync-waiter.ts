import { Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { Subscription } from '@nats-io/transport-node';
import type { TenantContext } from '@platform/db';
import { Bus, RunSubjects, type ExecutionStatusEvent } from '@platform/messaging';

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
  private subscriptions: Subscription[] = [];

  constructor(private readonly bus: Bus) {}

  onModuleInit(): void {
    this.subscriptions = TERMINAL.map((subject) =>
      this.bus.subscribeAll(subject, (event) => {
        const waiter = this.waiters.get(event.data.executionId);
        // Only the run's own tenant may answer it.
        if (waiter && event.context.tenantId === waiter.tenantId) waiter.resolve(event.data);
      }),
    );
  }

  onModuleDestroy(): void {
    for (const s of this.subscriptions) s.unsubscribe();
  }

  async wait(owner: TenantContext, runId: string, deliveryId: string, timeoutMs: number): Promise<{ status: number; body: Record<string, unknown> }> {
    const event = await new Promise<ExecutionStatusEvent | null>((resolve) => {
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
    return { status: 200, body: { run_id: runId, delivery_id: deliveryId, status: event.status, error: event.error ?? null } };
  }
}
