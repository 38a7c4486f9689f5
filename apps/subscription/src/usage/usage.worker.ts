import { Inject, Injectable } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import {
  NATS_CONNECTION,
  QueueConsumer,
  USAGE_BATCHES_QUEUE,
  USAGE_FACTS_QUEUE,
  hasTenant,
  type UsageFact,
  type UsageFactBatch,
  type WorkItem,
  type WorkResult,
} from '@platform/messaging';
import { SUBSCRIPTION_CONFIG, type SubscriptionConfig } from '../config/subscription.config.js';
import { UsageAggregator } from './usage.aggregator.js';

/** Aggregates the usage facts every service publishes one by one (the outbox relay, a lone fact). */
@Injectable()
export class UsageWorker extends QueueConsumer<UsageFact> {
  constructor(
    private readonly aggregator: UsageAggregator,
    @Inject(SUBSCRIPTION_CONFIG) config: SubscriptionConfig,
    @Inject(NATS_CONNECTION) nc: NatsConnection,
  ) {
    super(nc, USAGE_FACTS_QUEUE, { concurrency: config.SUBSCRIPTION_USAGE_CONCURRENCY, failure: 'usage fact not aggregated (redelivered)', level: 'warn' });
  }

  protected async handle(item: WorkItem<UsageFact>): Promise<WorkResult> {
    if (!hasTenant(item.context)) {
      this.logger.warn(`usage fact ${item.data.eventId} without a tenant context: dropped`);
      return { ack: true };
    }
    await this.aggregator.add(item.context, item.data);
    return { ack: true };
  }
}

/**
 * Aggregates the batches of one tenant context's facts that services publish under load: each
 * fact as if it had come alone (a redelivered batch adds nothing twice: each fact's id is kept).
 */
@Injectable()
export class UsageBatchWorker extends QueueConsumer<UsageFactBatch> {
  constructor(
    private readonly aggregator: UsageAggregator,
    @Inject(SUBSCRIPTION_CONFIG) config: SubscriptionConfig,
    @Inject(NATS_CONNECTION) nc: NatsConnection,
  ) {
    super(nc, USAGE_BATCHES_QUEUE, {
      concurrency: Math.max(1, Math.ceil(config.SUBSCRIPTION_USAGE_CONCURRENCY / 8)),
      failure: 'usage facts not aggregated (redelivered)',
      level: 'warn',
    });
  }

  protected async handle(item: WorkItem<UsageFactBatch>): Promise<WorkResult> {
    const context = item.context;
    if (!hasTenant(context)) {
      this.logger.warn(`${item.data.facts.length} usage facts without a tenant context: dropped`);
      return { ack: true };
    }
    await Promise.all(item.data.facts.map((fact) => this.aggregator.add(context, fact)));
    return { ack: true };
  }
}
