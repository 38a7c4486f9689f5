import { Module } from '@nestjs/common';
import { ConnectorsModule } from './connectors/connectors.module.js';
import { MarketplaceModule } from './marketplace/marketplace.module.js';
import { TemplatesModule } from './templates/templates.module.js';

/** The service's features; platform concerns (health, auth, database, NATS) come from bootstrapService. */
@Module({ imports: [ConnectorsModule, TemplatesModule, MarketplaceModule] })
export class AppModule {}
