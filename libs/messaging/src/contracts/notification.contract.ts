import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayNotEmpty,
  IsArray,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  MaxLength,
  MinLength,
  ValidateIf,
} from 'class-validator';
import type { WorkQueueSpec } from '../jetstream/work-queue.js';

/** Subjects the notification service answers or emits. */
export const NotificationSubjects = {
  /**
   * Request: accept a notification for delivery (the workflow `notification` step); answered once
   * the notification is stored and queued, like `POST /notifications/send`.
   */
  notificationsSend: 'notification.notifications.send',
  /** Work item (JetStream): deliver stored notifications. */
  deliver: 'notification.delivery.deliver',
} as const;

/** What `notification.notifications.send` takes: the fields of `POST /notifications/send`, camel-cased. */
export class SendNotificationRequest {
  @IsOptional()
  @IsUUID()
  channelId?: string;

  @IsOptional()
  @ArrayMinSize(1)
  @ArrayMaxSize(50)
  @IsString({ each: true })
  to?: string[];

  @IsOptional()
  @IsString()
  @MaxLength(998)
  subject?: string;

  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(40_000)
  body?: string;

  @IsOptional()
  @IsString()
  template?: string;

  @IsOptional()
  @IsObject()
  variables?: Record<string, unknown>;

  @IsOptional()
  @IsString()
  @MaxLength(255)
  idempotencyKey?: string;

  /** Who is sending, for the history. */
  @IsIn(['workflow', 'platform'])
  source!: 'workflow' | 'platform';
}

/**
 * Where a notification's delivery stands, as `notification.notifications.status` stores it (its
 * check constraint allows exactly these; apps/run/test/vocabularies.store.int-spec.ts).
 */
export const NOTIFICATION_STATUSES = ['queued', 'sending', 'retrying', 'delivered', 'failed', 'rate_limited'] as const;
export type NotificationStatus = (typeof NOTIFICATION_STATUSES)[number];

/**
 * What one delivery attempt came to, as each entry of `notification.notifications.attempts`
 * records it (`retry`: a transient failure, tried again). A field of a JSON column: no constraint
 * holds the database to it.
 */
export const NOTIFICATION_ATTEMPT_RESULTS = ['delivered', 'retry', 'failed', 'rate_limited'] as const;
export type NotificationAttemptResult = (typeof NOTIFICATION_ATTEMPT_RESULTS)[number];

export interface NotificationQueued {
  id: string;
  status: NotificationStatus;
}

/** Most notifications one delivery work item names (one commit's worth of sends). */
export const MAX_NOTIFICATIONS_PER_ITEM = 64;

/**
 * A delivery work item: the notification rows hold everything else. Sends committed together
 * travel as one item (`notificationIds`); the reconciler queues one notification at a time
 * (`notificationId`, also the shape of items queued before batching).
 */
export class NotificationDeliveryItem {
  @ValidateIf((o: NotificationDeliveryItem) => o.notificationIds === undefined)
  @IsUUID()
  notificationId?: string;

  @IsOptional()
  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(MAX_NOTIFICATIONS_PER_ITEM)
  @IsUUID('all', { each: true })
  notificationIds?: string[];
}

/**
 * Deliveries of accepted notifications: one item per commit of sends, published after the rows
 * are committed (message id = the first notification's id, so a repeat is dropped by the
 * stream). An item stays until every notification it names is delivered or failed for good; the
 * worker's own attempt limit decides when to stop; `maxDeliver` only bounds a poison item.
 */
export const NOTIFICATION_DELIVERY_QUEUE: WorkQueueSpec = {
  stream: 'NOTIFICATION_DELIVERIES',
  subjects: [NotificationSubjects.deliver],
  consumer: 'notification-deliveries',
  maxDeliver: 200,
  ackWaitMs: 20_000,
  deadLetterSubject: 'notification.deliveries.dead',
  payload: NotificationDeliveryItem,
};

export interface NotificationRequests {
  [NotificationSubjects.notificationsSend]: { request: SendNotificationRequest; response: NotificationQueued };
}

/** None yet. */
export type NotificationEvents = Record<never, never>;
