import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsInt, IsISO8601, IsOptional, IsUUID, ValidateNested } from 'class-validator';
import type { WorkQueueSpec } from '../jetstream/work-queue.js';

/** Subjects the subscription service answers or emits. Added here as its features are built. */
export const SubscriptionSubjects = {
  /** Work item (JetStream): one usage fact, published by the service where the usage happened. */
  usageRecorded: 'subscription.usage.recorded',
  /** Work item (JetStream): the usage facts of one tenant context published together (UsageFactBatch). */
  usageBatched: 'subscription.usage.batched',
  /** Request: a tenant's rate limits and exhausted quotas (the gateway asks once per tenant, then caches). */
  limitsGet: 'subscription.limits.get',
  /** Event (every gateway process): a tenant's limits changed (plan change, a quota reached or freed, a new period). */
  limitsChanged: 'subscription.limits.changed',
  /** Request: the current period's usage against the plan in the caller's tenant (portal dashboards), as `GET /subscription/usage`. */
  usageGet: 'subscription.usage.get',
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

/** Facts in one batch at most. */
export const USAGE_BATCH_MAX = 500;

/**
 * Usage facts of one tenant context (the item's context, as for a single fact) that a service
 * published together: under load one message and one stored write instead of one per fact. Each
 * fact keeps its own `eventId`, so a fact counts once however it travelled (alone, in a batch, or
 * again alone from an outbox relay).
 */
export class UsageFactBatch {
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(USAGE_BATCH_MAX)
  @ValidateNested({ each: true })
  @Type(() => UsageFact)
  facts!: UsageFact[];
}

/** Batches of usage facts (UsageFactBatch): a stream of their own beside USAGE_FACTS_QUEUE, the same guarantees. */
export const USAGE_BATCHES_QUEUE: WorkQueueSpec = {
  stream: 'SUBSCRIPTION_USAGE_BATCHES',
  subjects: [SubscriptionSubjects.usageBatched],
  consumer: 'subscription-usage-batches',
  maxDeliver: 50,
  ackWaitMs: 30_000,
  deadLetterSubject: 'subscription.usage.batches.dead',
  payload: UsageFactBatch,
};

/** Requests per minute the tenant's plan allows each credential kind. */
export interface PlanRateLimits {
  live: number;
  test: number;
  user: number;
}

/**
 * Notifications one tenant environment may send per minute and per UTC day under the tenant's
 * plan (the notification service enforces them); a plan without them leaves the service's settings.
 */
export interface PlanNotificationLimits {
  perMinute: number;
  perDay: number;
}

/** A quota of the current period that is used up: live-key requests that would use more are refused until `until`. */
export interface ExhaustedQuota {
  metric: UsageMetric;
  limit: number;
  /** ISO 8601: the period's end, when the quota starts afresh. */
  until: string;
}

/** What the gateway (and the notification service) enforce for one tenant: limits from its plan and the quotas used up. */
export interface TenantLimits {
  tenantId: string;
  plan: string;
  rateLimits: PlanRateLimits;
  /** The plan's notification sending limits; null when the plan sets none (the notification service's settings apply). */
  notificationLimits?: PlanNotificationLimits | null;
  exhausted: ExhaustedQuota[];
  /** ISO 8601 time these limits were computed; a cached copy older than a newer one is replaced, never the reverse. */
  computedAt: string;
}

/** Asks for one tenant's limits (no tenant context: the gateway asks for whichever tenant it met). */
export class LimitsGetRequest {
  @IsUUID()
  tenantId!: string;
}

/** Usage of the caller's tenant; the caller's scope (a customer) narrows it, as does `customerId`. */
export class UsageGetRequest {
  @IsOptional()
  @IsUUID()
  customerId?: string;
}

/** One metric of the current period, the fields of `GET /subscription/usage`. */
export interface MetricUsageSnapshot {
  metric: string;
  used: number;
  included: number;
  limit: number | null;
  remaining: number | null;
  sandbox_used: number;
}

export interface UsageSnapshot {
  plan: string;
  period_start: string;
  period_end: string;
  customer_id: string | null;
  metrics: MetricUsageSnapshot[];
}

export interface SubscriptionRequests {
  [SubscriptionSubjects.limitsGet]: { request: LimitsGetRequest; response: TenantLimits };
  [SubscriptionSubjects.usageGet]: { request: UsageGetRequest; response: UsageSnapshot };
}

export interface SubscriptionEvents {
  [SubscriptionSubjects.limitsChanged]: TenantLimits;
}
