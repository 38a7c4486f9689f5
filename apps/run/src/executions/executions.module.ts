import { Module } from '@nestjs/common';
import { UsageOutboxModule } from '@platform/service';
import { RunConfigModule } from '../config/run-config.module.js';
import { EngineModule } from '../engine/engine.module.js';
import { ExecutionStoreModule } from './execution-store.module.js';
import { ExecutionStarter } from './execution.starter.js';
import { ExecutionWaiter } from './execution-waiter.js';
import { ExecutionsController } from './executions.controller.js';
import { ExecutionsHandler } from './executions.handler.js';
import { ExecutionsService } from './executions.service.js';
import { RetentionJob } from './retention.job.js';
import { TaskOutcomesWorker } from './task-outcomes.worker.js';

/** Executions over HTTP and NATS: starts, reads (held until the run ends with `Prefer: wait`), logs, cancel, approvals; and their retention. */
@Module({
  imports: [RunConfigModule, EngineModule, ExecutionStoreModule, UsageOutboxModule],
  controllers: [ExecutionsController, ExecutionsHandler],
  providers: [ExecutionStarter, ExecutionsService, ExecutionWaiter, RetentionJob, TaskOutcomesWorker],
})
export class ExecutionsModule {}
