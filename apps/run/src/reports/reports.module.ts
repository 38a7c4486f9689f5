import { Module } from '@nestjs/common';
import { ReportsHandler } from './reports.handler.js';

/** Execution counts and recent runs for the portal's dashboards and embedded views (over NATS only). */
@Module({ controllers: [ReportsHandler] })
export class ReportsModule {}
