import { randomUUID } from 'node:crypto';
import { v5 } from 'uuid';
import { Inject, Injectable } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import { SubscriptionSubjects, USAGE_FACTS_QUEUE, type UsageFact, type UsageMetric } from '../contracts/subscription.contract.js';
import { messageContext, type TenantRef } from '../envelope.js';
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
 * How every service reports metered usage: one durable JetStream publish per fact, addressed to
 * the tenant (and customer, through the scope) the usage belongs to. Resolves once the stream has
 * stored the fact; the caller decides whether a failure matters (an outbox, a retry, or a log).
 */
@Injectable()
export class UsageMeter {
  private ready?: Promise<void>;

  constructor(@Inject(NATS_CONNECTION) private readonly nc: NatsConnection) {}

  async record(tenant: TenantRef, usage: UsageRecord): Promise<void> {
    this.ready ??= ensureWorkQueue(this.nc, USAGE_FACTS_QUEUE).catch((error: unknown) => {
      this.ready = undefined;
      throw error;
    });
    await this.ready;
    const fact: UsageFact = {
      eventId: usage.eventId ?? randomUUID(),
      metric: usage.metric,
      quantity: usage.quantity,
      occurredAt: (usage.occurredAt ?? new Date()).toISOString(),
      ...(usage.keyMode ? { keyMode: usage.keyMode } : {}),
    };
    await enqueueWork(this.nc, SubscriptionSubjects.usageRecorded, fact, fact.eventId, messageContext(tenant));
  }
}
