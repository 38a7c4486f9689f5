import { Module } from '@nestjs/common';
import { EngineModule } from './engine/engine.module.js';
import { EnginePortsModule } from './engine-ports.module.js';
import { ExecutionsModule } from './executions/executions.module.js';
import { ReportsModule } from './reports/reports.module.js';
import { WorkflowsModule } from './workflows/workflows.module.js';

/** The service's features; platform concerns (health, auth, database, NATS) come from bootstrapService. */
@Module({ imports: [EnginePortsModule, WorkflowsModule, EngineModule, ExecutionsModule, ReportsModule] })
export class AppModule {}
