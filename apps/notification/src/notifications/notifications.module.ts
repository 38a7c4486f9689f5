import { Module } from '@nestjs/common';
import { UsageOutboxModule } from '@platform/service';
import { ChannelsModule } from '../channels/channels.module.js';
import { PlatformNoticesHandler } from '../notices/platform-notices.handler.js';
import { PlatformNoticesService } from '../notices/platform-notices.service.js';
import { Composer } from './composer.js';
import { DeliveryReconcilerJob } from './delivery-reconciler.job.js';
import { DeliveryWorker } from './delivery.worker.js';
import { NotificationsController } from './notifications.controller.js';
import { NotificationsHandler } from './notifications.handler.js';
import { NotificationsService } from './notifications.service.js';
import { SendLimits } from './send-limits.js';

/** Sending: accepting notifications, their durable delivery with retries, the history, and the platform's own notices. */
@Module({
  imports: [ChannelsModule, UsageOutboxModule],
  controllers: [NotificationsController, NotificationsHandler, PlatformNoticesHandler],
  providers: [Composer, SendLimits, NotificationsService, DeliveryWorker, DeliveryReconcilerJob, PlatformNoticesService],
})
export class NotificationsModule {}
