import { Module } from '@nestjs/common';
import { resolveMasterKeys, type ServiceConfig } from '@platform/common';
import { SERVICE_CONFIG } from '@platform/service';
import { NOTIFICATION_CONFIG, loadNotificationConfig } from '../config/notification.config.js';
import { Senders } from '../delivery/senders.js';
import { ChannelSecretBox } from './channel-secrets.js';
import { ChannelsController } from './channels.controller.js';
import { ChannelsService } from './channels.service.js';

/** Notification channels, their sealed credentials, and the senders that reach them. */
@Module({
  controllers: [ChannelsController],
  providers: [
    { provide: NOTIFICATION_CONFIG, useFactory: () => loadNotificationConfig() },
    { provide: ChannelSecretBox, useFactory: (config: ServiceConfig) => new ChannelSecretBox(resolveMasterKeys(config)), inject: [SERVICE_CONFIG] },
    Senders,
    ChannelsService,
  ],
  exports: [NOTIFICATION_CONFIG, ChannelSecretBox, Senders, ChannelsService],
})
export class ChannelsModule {}
