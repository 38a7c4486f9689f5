import { Module } from '@nestjs/common';
import { ChannelsModule } from '../channels/channels.module.js';
import { DeliveryWorker } from './delivery.worker.js';

/** Delivering queued notifications: the work-queue consumer, in the delivery thread or in the service itself. */
@Module({ imports: [ChannelsModule], providers: [DeliveryWorker] })
export class DeliveryModule {}
