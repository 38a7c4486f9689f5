import { Inject, Injectable } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import {
  NATS_CONNECTION,
  QueueConsumer,
  TASK_OUTCOMES_QUEUE,
  hasTenant,
  retryDelayMs,
  type TaskOutcomeItem,
  type WorkItem,
  type WorkResult,
} from '@platform/messaging';
import { ExecutionsService } from './executions.service.js';

/**
 * An outcome that came before its step's wait is delivered again after 250 ms, backing off to
 * 10 s: over the queue's 100 deliveries that outlasts a worker lease (the step asks for its task
 * before it records the wait, so a worker that died in between leaves the run to the reconciler).
 */
const EARLY_RETRY = { baseMs: 250, capMs: 10_000 };

/**
 * The JetStream consumer of human task outcomes: each is recorded on the waiting approval or form
 * step and the execution resumes. The queue keeps outcomes decided while no run replica was up,
 * and an item is acknowledged only once recorded (or found recorded before).
 */
@Injectable()
export class TaskOutcomesWorker extends QueueConsumer<TaskOutcomeItem> {
  constructor(
    @Inject(NATS_CONNECTION) nc: NatsConnection,
    private readonly executions: ExecutionsService,
  ) {
    super(nc, TASK_OUTCOMES_QUEUE, { concurrency: 64, failure: 'task outcome failed' });
  }

  protected async handle({ data, context, deliveryCount }: WorkItem<TaskOutcomeItem>): Promise<WorkResult> {
    if (!hasTenant(context)) return { ack: true };
    const state = await this.executions.resolveTask(
      { tenantId: context.tenantId, environmentId: context.environmentId, scopeId: context.scopeId ?? null },
      data,
    );
    return state === 'early' ? { retryInMs: retryDelayMs(deliveryCount, EARLY_RETRY.baseMs, EARLY_RETRY.capMs) } : { ack: true };
  }
}
