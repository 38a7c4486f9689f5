import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import { NATS_CONNECTION, ensureWorkQueue, startWorker, type ExecutionWorkItem, type Worker } from '@platform/messaging';
import { RUN_CONFIG, type RunConfig } from '../../config/run.config.js';
import { ExecutionQueue } from './execution.queue.js';
import { RunDispatcher } from './run.dispatcher.js';

/**
 * The JetStream consumer of the run queue: takes due executions off it, RUN_WORKER_CONCURRENCY
 * at a time, and runs each through the dispatcher. An item that fails is redelivered with backoff.
 */
@Injectable()
export class QueueWorker implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(QueueWorker.name);
  private worker?: Worker;

  constructor(
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    private readonly queue: ExecutionQueue,
    private readonly dispatcher: RunDispatcher,
    @Inject(RUN_CONFIG) private readonly config: RunConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await ensureWorkQueue(this.nc, this.queue.spec);
    this.worker = await startWorker<ExecutionWorkItem>(
      this.nc,
      this.queue.spec,
      async (item) => {
        await this.dispatcher.runQueued(item.data, () => item.working());
        return { ack: true };
      },
      { concurrency: this.config.RUN_WORKER_CONCURRENCY, onError: (error) => this.logger.error(`work item failed: ${String(error)}`) },
    );
  }

  async onModuleDestroy(): Promise<void> {
    await this.worker?.stop();
  }
}
