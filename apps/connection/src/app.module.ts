import { Module } from '@nestjs/common';
import { ConnectionsModule } from './connections/connections.module.js';

/** The service's features; platform concerns (health, auth, database, NATS) come from bootstrapService. */
@Module({ imports: [ConnectionsModule] })
export class AppModule {}
