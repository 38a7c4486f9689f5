import { Module } from '@nestjs/common';
import { UsageOutboxModule } from '@platform/service';
import { RunConfigModule } from '../config/run-config.module.js';
import { EngineModule } from '../engine/engine.module.js';
import { ExecutionStoreModule } from './execution-store.module.js';
import { ExecutionStarter } from './execution.starter.js';
import { ExecutionsController } from './executions.controller.js';
import { ExecutionsHandler } from './executions.handler.js';
import { ExecutionsService } from './executions.service.js';
import { RetentionJob } from './retention.job.js';
import { TaskOutcomesWorker } from './task-outcomes.worker.js';

/** Executions over HTTP and NATS: starts, reads, logs, cancel, approvals; and their retention. */
@Module({
  imports: [RunConfigModule, EngineModule, ExecutionStoreModule, UsageOutboxModule],
  controllers: [ExecutionsController, ExecutionsHandler],
  providers: [ExecutionStarter, ExecutionsService, RetentionJob, TaskOutcomesWorker],
})
export class ExecutionsModule {}
