import { Module } from '@nestjs/common';
import { ConnectorsModule } from '../connectors/connectors.module.js';
import { TemplatesModule } from '../templates/templates.module.js';
import { MarketplaceController } from './marketplace.controller.js';
import { MarketplaceService } from './marketplace.service.js';

/** The marketplace: published connectors and templates. */
@Module({ imports: [ConnectorsModule, TemplatesModule], controllers: [MarketplaceController], providers: [MarketplaceService] })
export class MarketplaceModule {}
