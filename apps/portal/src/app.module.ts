import { Module } from '@nestjs/common';
import { CustomersController } from './customers/customers.controller.js';
import { DashboardsModule } from './dashboards/dashboards.module.js';
import { PublishingModule } from './publishing/publishing.module.js';

/** The service's features; platform concerns (health, auth, database, NATS) come from bootstrapService. */
@Module({ imports: [PublishingModule, DashboardsModule], controllers: [CustomersController] })
export class AppModule {}
