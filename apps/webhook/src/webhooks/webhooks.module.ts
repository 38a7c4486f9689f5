import { Module } from '@nestjs/common';
import { resolveMasterKeys, type ServiceConfig } from '@platform/common';
import { SERVICE_CONFIG } from '@platform/service';
import { WEBHOOK_CONFIG, loadWebhookConfig } from '../config/webhook.config.js';
import { DeliveryStarter } from './delivery-starter.js';
import { DeliveryWriter } from './delivery-writer.js';
import { ReceivingCache } from './receiving-cache.js';
import { DeliveriesService } from './deliveries.service.js';
import { DeliveryReconcilerJob } from './delivery-reconciler.job.js';
import { ReceiverController } from './receiver.controller.js';
import { RunStarter } from './run-starter.js';
import { SecretBox } from './secret-box.js';
import { SyncWaiter } from './sync-waiter.js';
import { WebhooksController } from './webhooks.controller.js';
import { WebhooksHandler } from './webhooks.handler.js';
import { WebhooksService } from './webhooks.service.js';

/** Incoming webhooks: management, the public receiving route, durable deliveries and their runs. */
@Module({
  // The receiving route first: `/webhooks/in/:id` must never be read as `/webhooks/:id/...`.
  controllers: [ReceiverController, WebhooksController, WebhooksHandler],
  providers: [
    { provide: SecretBox, useFactory: (config: ServiceConfig) => new SecretBox(resolveMasterKeys(config)), inject: [SERVICE_CONFIG] },
    WebhooksService,
    { provide: WEBHOOK_CONFIG, useFactory: () => loadWebhookConfig() },
    ReceivingCache,
    DeliveryWriter,
    DeliveryStarter,
    DeliveriesService,
    RunStarter,
    SyncWaiter,
    DeliveryReconcilerJob,
  ],
})
export class WebhooksModule {}
