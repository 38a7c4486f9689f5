import { Module } from '@nestjs/common';
import { DashboardsController } from './dashboards.controller.js';
import { DashboardsService } from './dashboards.service.js';

/** Dashboards and their numbers. */
@Module({ controllers: [DashboardsController], providers: [DashboardsService], exports: [DashboardsService] })
export class DashboardsModule {}
