import { Module } from '@nestjs/common';
import { NotificationsModule } from './notifications/notifications.module.js';

/** The service's features; platform concerns (health, auth, database, NATS) come from bootstrapService. */
@Module({ imports: [NotificationsModule] })
export class AppModule {}
