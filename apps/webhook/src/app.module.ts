import { Module } from '@nestjs/common';
import { WebhooksModule } from './webhooks/webhooks.module.js';

/** The service's features; platform concerns (health, auth, database, NATS) come from bootstrapService. */
@Module({ imports: [WebhooksModule] })
export class AppModule {}
