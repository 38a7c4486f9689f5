import { IsIn, IsInt, IsISO8601, IsOptional, IsUUID } from 'class-validator';
import type { WorkQueueSpec } from '../jetstream/work-queue.js';

/** Subjects the subscription service answers or emits. Added here as its features are built. */
export const SubscriptionSubjects = {
  /** Work item (JetStream): one usage fact, published by the service where the usage happened. */
  usageRecorded: 'subscription.usage.recorded',
} as const;

/** What a tenant is metered on: the plan's monthly quotas are per metric. */
export const USAGE_METRICS = ['runs', 'ai_tokens', 'storage_bytes', 'notifications', 'active_workflows', 'seats'] as const;
export type UsageMetric = (typeof USAGE_METRICS)[number];

/**
 * One usage fact. The tenant and environment travel in the item's context (with the scope, i.e.
 * the customer, when the usage is a customer's); `eventId` is unique per fact, so a replayed fact
 * counts once. `quantity` is signed: storage freed is a negative `storage_bytes` fact.
 */
export class UsageFact {
  @IsUUID()
  eventId!: string;

  @IsIn(USAGE_METRICS)
  metric!: UsageMetric;

  @IsInt()
  quantity!: number;

  /** Whether the usage came from test (sandbox) or live credentials; test usage is not held against quotas. */
  @IsOptional()
  @IsIn(['live', 'test'])
  keyMode?: 'live' | 'test';

  @IsISO8601()
  occurredAt!: string;
}

/**
 * Usage facts on their way to the subscription service: a work-queue stream, so facts published
 * while it is down are counted when it comes back; the message id is the fact's `eventId`, so the
 * stream itself drops a repeat published within its duplicate window.
 */
export const USAGE_FACTS_QUEUE: WorkQueueSpec = {
  stream: 'SUBSCRIPTION_USAGE',
  subjects: [SubscriptionSubjects.usageRecorded],
  consumer: 'subscription-usage',
  maxDeliver: 50,
  ackWaitMs: 30_000,
  deadLetterSubject: 'subscription.usage.dead',
  payload: UsageFact,
};

/** None yet: added here as the service's features are built. */
export type SubscriptionRequests = Record<never, never>;

/** None yet: added here as the service's features are built. */
export type SubscriptionEvents = Record<never, never>;
