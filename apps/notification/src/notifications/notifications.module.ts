import { Module } from '@nestjs/common';
import { UsageOutboxModule } from '@platform/service';
import { ChannelsModule } from '../channels/channels.module.js';
import { Composer } from './composer.js';
import { DeliveryReconcilerJob } from './delivery-reconciler.job.js';
import { DeliveryWorker } from './delivery.worker.js';
import { NotificationsController } from './notifications.controller.js';
import { NotificationsHandler } from './notifications.handler.js';
import { NotificationsService } from './notifications.service.js';
import { SendLimits } from './send-limits.js';

/** Sending: accepting notifications, their durable delivery with retries, and the history. */
@Module({
  imports: [ChannelsModule, UsageOutboxModule],
  controllers: [NotificationsController, NotificationsHandler],
  providers: [Composer, SendLimits, NotificationsService, DeliveryWorker, DeliveryReconcilerJob],
  exports: [NotificationsService],
})
export class NotificationsModule {}
