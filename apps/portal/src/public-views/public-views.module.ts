import { Module } from '@nestjs/common';
import { DashboardsModule } from '../dashboards/dashboards.module.js';
import { EmbedsModule } from '../embeds/embeds.module.js';
import { PublishingModule } from '../publishing/publishing.module.js';
import { PublicViewsController } from './public-views.controller.js';
import { PublicViewsService } from './public-views.service.js';
import { SubmissionLimits } from './submission-limits.js';

/** The public pages behind embed tokens. */
@Module({
  imports: [PublishingModule, DashboardsModule, EmbedsModule],
  controllers: [PublicViewsController],
  providers: [PublicViewsService, SubmissionLimits],
})
export class PublicViewsModule {}
