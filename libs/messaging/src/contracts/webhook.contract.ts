import { IsBoolean, IsISO8601, IsObject, IsOptional, IsUUID } from 'class-validator';

/** Subjects the webhook service answers or emits. */
export const WebhookSubjects = {
  /**
   * Request: check that a webhook of the caller's tenant exists and mark it as firing triggers
   * (its accepted deliveries are then announced as `webhook.delivery.received`).
   */
  webhooksLink: 'webhook.webhooks.link',
  /** Event: an accepted delivery of a webhook that fires triggers (JetStream-published, after commit). */
  deliveryReceived: 'webhook.delivery.received',
} as const;

/**
 * What became of one delivery to a webhook, as `webhook.deliveries.outcome` stores it (its check
 * constraint allows exactly these; apps/run/test/vocabularies.store.int-spec.ts).
 */
export const WEBHOOK_DELIVERY_OUTCOMES = ['accepted', 'duplicate', 'rejected'] as const;
export type WebhookDeliveryOutcome = (typeof WEBHOOK_DELIVERY_OUTCOMES)[number];

export class LinkWebhookRequest {
  @IsUUID()
  webhookId!: string;
}

export interface LinkedWebhook {
  id: string;
  name: string;
  workflowId: string;
}

/** The run input its webhook's own workflow gets is what webhook triggers map from. */
export class WebhookDeliveryReceivedEvent {
  @IsUUID()
  webhookId!: string;

  @IsUUID()
  deliveryId!: string;

  /** `{ body, headers, query, method, webhook_id, delivery_id }`; the body is null when it was too large to carry (`truncated`). */
  @IsObject()
  request!: Record<string, unknown>;

  @IsOptional()
  @IsBoolean()
  truncated?: boolean;

  @IsISO8601()
  receivedAt!: string;
}

export interface WebhookRequests {
  [WebhookSubjects.webhooksLink]: { request: LinkWebhookRequest; response: LinkedWebhook };
}

export interface WebhookEvents {
  [WebhookSubjects.deliveryReceived]: WebhookDeliveryReceivedEvent;
}
