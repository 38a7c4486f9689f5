import { Module } from '@nestjs/common';
import { TriggersModule } from './triggers/triggers.module.js';

/** The service's features; platform concerns (health, auth, database, NATS) come from bootstrapService. */
@Module({ imports: [TriggersModule] })
export class AppModule {}
