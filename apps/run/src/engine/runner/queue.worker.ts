import { Inject, Injectable } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import { NATS_CONNECTION, QueueConsumer, type ExecutionWorkItem, type WorkItem, type WorkResult } from '@platform/messaging';
import { RUN_CONFIG, type RunConfig } from '../../config/run.config.js';
import { ExecutionQueue } from './execution.queue.js';
import { RunDispatcher } from './run.dispatcher.js';

/**
 * The JetStream consumer of the run queue: takes due executions off it, RUN_WORKER_CONCURRENCY
 * at a time, and runs each through the dispatcher. An item that fails is redelivered with backoff.
 */
@Injectable()
export class QueueWorker extends QueueConsumer<ExecutionWorkItem> {
  constructor(
    @Inject(NATS_CONNECTION) nc: NatsConnection,
    queue: ExecutionQueue,
    private readonly dispatcher: RunDispatcher,
    @Inject(RUN_CONFIG) config: RunConfig,
  ) {
    super(nc, queue.spec, { concurrency: config.RUN_WORKER_CONCURRENCY, failure: 'work item failed' });
  }

  protected async handle(item: WorkItem<ExecutionWorkItem>): Promise<WorkResult> {
    await this.dispatcher.runQueued(item.data, () => item.working());
    return { ack: true };
  }
}
