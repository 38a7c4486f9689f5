import { ArrayMaxSize, ArrayMinSize, IsIn, IsObject, IsOptional, IsString, IsUUID, MaxLength, MinLength } from 'class-validator';
import type { WorkQueueSpec } from '../jetstream/work-queue.js';

/** Subjects the notification service answers or emits. */
export const NotificationSubjects = {
  /**
   * Request: accept a notification for delivery (the workflow `notification` step); answered once
   * the notification is stored and queued, like `POST /notifications/send`.
   */
  notificationsSend: 'notification.notifications.send',
  /** Work item (JetStream): deliver one stored notification. */
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

export interface NotificationQueued {
  id: string;
  status: string;
}

/** A delivery work item: the notification row holds everything else. */
export class NotificationDeliveryItem {
  @IsUUID()
  notificationId!: string;
}

/**
 * Deliveries of accepted notifications: one item per notification, published after its row is
 * committed (message id = notification id, so a repeat is dropped by the stream). The worker's
 * own attempt limit decides when to stop; `maxDeliver` only bounds a poison item.
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
