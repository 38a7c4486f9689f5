import { Module } from '@nestjs/common';
import { NoticesModule } from './notices/notices.module.js';
import { NotificationsModule } from './notifications/notifications.module.js';

/** The service's features; platform concerns (health, auth, database, NATS) come from bootstrapService. */
@Module({ imports: [NotificationsModule, NoticesModule] })
export class AppModule {}
