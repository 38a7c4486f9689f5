import { Module } from '@nestjs/common';
import { UsageOutboxModule } from '@platform/service';
import { ChannelsModule } from '../channels/channels.module.js';
import { Composer } from './composer.js';
import { DeliveryReconcilerJob } from './delivery-reconciler.job.js';
import { deliveryInThread } from '../config/notification.config.js';
import { DeliveryModule } from './delivery.module.js';
import { DeliveryThreadHost } from './delivery-thread.host.js';
import { NotificationsController } from './notifications.controller.js';
import { NotificationsHandler } from './notifications.handler.js';
import { NotificationsService } from './notifications.service.js';
import { SendLimits } from './send-limits.js';

const inThread = deliveryInThread();

/**
 * Sending: accepting notifications, their durable delivery with retries (in the delivery thread,
 * or here with NOTIFICATION_DELIVERY_THREAD=false), and the history.
 */
@Module({
  imports: [ChannelsModule, UsageOutboxModule, ...(inThread ? [] : [DeliveryModule])],
  controllers: [NotificationsController, NotificationsHandler],
  providers: [Composer, SendLimits, NotificationsService, DeliveryReconcilerJob, ...(inThread ? [DeliveryThreadHost] : [])],
  exports: [NotificationsService],
})
export class NotificationsModule {}
