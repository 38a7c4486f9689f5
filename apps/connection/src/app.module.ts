import { Module } from '@nestjs/common';
import { ConnectionsModule } from './connections/connections.module.js';
import { OAuthModule } from './oauth/oauth.module.js';
import { OperationsModule } from './operations/operations.module.js';

/** The service's features; platform concerns (health, auth, database, NATS) come from bootstrapService. */
@Module({ imports: [OAuthModule, ConnectionsModule, OperationsModule] })
export class AppModule {}
