import { Module } from '@nestjs/common';
import { SubscriptionModule } from './subscription.module.js';

/** The service's features; platform concerns (health, auth, database, NATS) come from bootstrapService. */
@Module({ imports: [SubscriptionModule] })
export class AppModule {}
