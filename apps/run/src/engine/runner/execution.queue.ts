import { Inject, Injectable, Logger } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import { NATS_CONNECTION, RUN_WORK_QUEUE, RunSubjects, enqueueWork, messageContext, type ExecutionWorkItem } from '@platform/messaging';
import { runContext, tenantOf, type ExecutionRef } from '../execution.records.js';

/**
 * Wakes workers through JetStream. PostgreSQL holds the truth: an item is published after the row
 * it points to is committed, and a lost item only delays a run until the reconciler re-sends it.
 */
@Injectable()
export class ExecutionQueue {
  private readonly logger = new Logger(ExecutionQueue.name);

  constructor(@Inject(NATS_CONNECTION) private readonly nc: NatsConnection) {}

  /**
   * `token` distinguishes wake-ups of one execution, so JetStream's duplicate window drops only
   * true repeats. The item travels in the run's context, whoever enqueues it (the reconciler too).
   */
  async enqueue(execution: ExecutionRef, token: string): Promise<void> {
    const item: ExecutionWorkItem = {
      executionId: execution.id,
      tenantId: execution.tenant_id,
      environmentId: execution.environment_id,
      scopeId: execution.scope_id,
    };
    try {
      await enqueueWork(this.nc, RunSubjects.work, item, `${execution.id}:${token}`, messageContext(tenantOf(execution), runContext(execution)));
    } catch (error) {
      this.logger.warn(`could not enqueue execution ${execution.id} (the reconciler will): ${(error as Error).message}`);
    }
  }

  get spec() {
    return RUN_WORK_QUEUE;
  }
}
