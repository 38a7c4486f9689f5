import { Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import { ensureWorkQueue, startWorker, type WorkItem, type WorkQueueSpec, type WorkResult, type Worker } from './work-queue.js';

export interface QueueConsumerSettings {
  /** Items handled at once on this replica. */
  concurrency: number;
  /** Logged, with the error, when an item fails and is redelivered. */
  failure: string;
  level?: 'warn' | 'error';
  /** Queues this consumer publishes to, made sure of at bootstrap with its own. */
  ensure?: WorkQueueSpec[];
}

/**
 * A provider that consumes one durable work queue: at bootstrap the queue (and those it publishes
 * to) is created or updated and the consumer starts; at shutdown it stops, letting the items in
 * hand finish. Subclasses name the queue and handle each item.
 */
export abstract class QueueConsumer<T> implements OnApplicationBootstrap, OnModuleDestroy {
  protected readonly logger = new Logger(this.constructor.name);
  private worker?: Worker;

  protected constructor(
    private readonly connection: NatsConnection,
    private readonly consumed: WorkQueueSpec,
    private readonly consumerSettings: QueueConsumerSettings,
  ) {}

  protected abstract handle(item: WorkItem<T>): Promise<WorkResult>;

  async onApplicationBootstrap(): Promise<void> {
    for (const queue of [...(this.consumerSettings.ensure ?? []), this.consumed]) await ensureWorkQueue(this.connection, queue);
    const log = this.consumerSettings.level === 'warn' ? 'warn' : 'error';
    this.worker = await startWorker<T>(this.connection, this.consumed, (item) => this.handle(item), {
      concurrency: this.consumerSettings.concurrency,
      onError: (error) => this.logger[log](`${this.consumerSettings.failure}: ${String(error)}`),
    });
  }

  async onModuleDestroy(): Promise<void> {
    await this.worker?.stop();
  }
}
