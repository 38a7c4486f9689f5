import { Controller } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { LinkWebhookRequest, TenantPayload, WebhookSubjects, type LinkedWebhook, type TenantMessage } from '@platform/messaging';
import { WebhooksService } from './webhooks.service.js';

/** Webhooks over NATS: the trigger service checks (and links) the webhook a webhook trigger names. */
@Controller()
export class WebhooksHandler {
  constructor(private readonly webhooks: WebhooksService) {}

  @MessagePattern(WebhookSubjects.webhooksLink)
  link(@TenantPayload(LinkWebhookRequest) { tenant, body }: TenantMessage<LinkWebhookRequest>): Promise<LinkedWebhook> {
    return this.webhooks.link(tenant, body.webhookId);
  }
}
