import { Module } from '@nestjs/common';
import { ChannelsModule } from '../channels/channels.module.js';
import { NotificationsModule } from '../notifications/notifications.module.js';
import { KeyExpiryNoticesWorker } from './key-expiry-notices.worker.js';
import { NoticeSettingsController } from './notice-settings.controller.js';
import { NoticeSettingsService } from './notice-settings.service.js';
import { PlatformNoticesHandler } from './platform-notices.handler.js';
import { PlatformNoticesService } from './platform-notices.service.js';

/**
 * The platform's own notices, sent through the same path as the API: failed executions and tasks
 * (workflow settings say where), and API keys about to expire (the environment's notice settings).
 */
@Module({
  imports: [ChannelsModule, NotificationsModule],
  controllers: [NoticeSettingsController, PlatformNoticesHandler],
  providers: [NoticeSettingsService, PlatformNoticesService, KeyExpiryNoticesWorker],
})
export class NoticesModule {}
