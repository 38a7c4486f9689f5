import { Module } from '@nestjs/common';
import { DashboardsModule } from '../dashboards/dashboards.module.js';
import { PublishingModule } from '../publishing/publishing.module.js';
import { SigningModule } from '../signing/signing.module.js';
import { EmbedAccess } from './embed-access.js';
import { EmbedsController } from './embeds.controller.js';
import { EmbedsService } from './embeds.service.js';

/** Embed tokens: made, listed and revoked by the tenant; checked by the public views. */
@Module({
  imports: [SigningModule, PublishingModule, DashboardsModule],
  controllers: [EmbedsController],
  providers: [EmbedsService, EmbedAccess],
  exports: [EmbedAccess, SigningModule],
})
export class EmbedsModule {}
