import { Module } from '@nestjs/common';
import { CustomersController } from './customers/customers.controller.js';
import { DashboardsModule } from './dashboards/dashboards.module.js';
import { EmbedsModule } from './embeds/embeds.module.js';
import { PublicViewsModule } from './public-views/public-views.module.js';
import { PublishingModule } from './publishing/publishing.module.js';

/** The service's features; platform concerns (health, auth, database, NATS) come from bootstrapService. */
@Module({ imports: [PublishingModule, DashboardsModule, EmbedsModule, PublicViewsModule], controllers: [CustomersController] })
export class AppModule {}
