import { v5 } from 'uuid';
import { Inject, Injectable } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import { SubscriptionSubjects, USAGE_BATCHES_QUEUE, USAGE_FACTS_QUEUE, type UsageFact, type UsageMetric } from '../contracts/subscription.contract.js';
import type { MessageContext } from '../envelope.js';
import { enqueueWork, ensureWorkQueue } from '../jetstream/work-queue.js';
import { NATS_CONNECTION } from '../nats-connection.js';

/** Fixed namespace of derived usage event ids (a random v4 chosen once; never change it). */
const USAGE_EVENT_NAMESPACE = '6f1d2a7e-53c4-4b8e-9a51-0c2f7d9e4b13';

/**
 * A stable event id for a fact named by its parts (`usageEventId('run', runId)`): a retried
 * publish of the same fact carries the same id, so it counts once.
 */
export function usageEventId(...parts: string[]): string {
  return v5(parts.join(':'), USAGE_EVENT_NAMESPACE);
}

export interface UsageRecord {
  metric: UsageMetric;
  quantity: number;
  /** Stable per fact (e.g. derived from the run id), so a retried publish counts once; random when omitted. */
  eventId?: string;
  keyMode?: 'live' | 'test';
  occurredAt?: Date;
}

/**
 * The publishing end of metering: one durable JetStream publish per fact, with the fact's event id
 * as the message id, addressed (through the context) to the tenant and customer the usage belongs
 * to. Resolves once the stream has stored the fact. Services do not call it directly: they write
 * facts to their usage outbox (@platform/service UsageOutbox), which publishes through it.
 */
@Injectable()
export class UsageMeter {
  private ready?: Promise<void>;
  private batchesReady?: Promise<void>;

  constructor(@Inject(NATS_CONNECTION) private readonly nc: NatsConnection) {}

  async publish(fact: UsageFact, context: MessageContext): Promise<void> {
    this.ready ??= ensureWorkQueue(this.nc, USAGE_FACTS_QUEUE).catch((error: unknown) => {
      this.ready = undefined;
      throw error;
    });
    await this.ready;
    await enqueueWork(this.nc, SubscriptionSubjects.usageRecorded, fact, fact.eventId, context);
  }

  /**
   * Facts of the one tenant context `context` names (at most USAGE_BATCH_MAX) in one durable
   * publish; the message id is derived from their event ids, so a retry of the same batch is a
   * duplicate the stream drops. Resolves once the stream has stored them all.
   */
  async publishBatch(facts: UsageFact[], context: MessageContext): Promise<void> {
    this.batchesReady ??= ensureWorkQueue(this.nc, USAGE_BATCHES_QUEUE).catch((error: unknown) => {
      this.batchesReady = undefined;
      throw error;
    });
    await this.batchesReady;
    const msgId = usageEventId('batch', ...facts.map((f) => f.eventId));
    await enqueueWork(this.nc, SubscriptionSubjects.usageBatched, { facts }, msgId, context);
  }
}
