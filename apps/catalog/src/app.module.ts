import { Module } from '@nestjs/common';
import { ConnectorsModule } from './connectors/connectors.module.js';

/** The service's features; platform concerns (health, auth, database, NATS) come from bootstrapService. */
@Module({ imports: [ConnectorsModule] })
export class AppModule {}
