import { Module } from '@nestjs/common';
import { SERVICE_CONFIG } from '@platform/service';
import { Bus } from '@platform/messaging';
import { RUN_CONFIG } from './config/run.config.js';
import { ChildExecutions } from './engine/child-executions.js';
import { DefinitionsCache } from './engine/definitions.cache.js';
import { ExecutionRunner } from './engine/execution.runner.js';
import { LocalRuns } from './engine/local-runs.js';
import { Reconciler } from './engine/reconciler.js';
import { StepRegistry } from './engine/step-registry.js';
import { actionSteps } from './engine/steps/index.js';
import { ExecutionQueue } from './engine/work-queue.js';
import { ExecutionEvents } from './executions/execution.events.js';
import { ExecutionStarter } from './executions/execution.starter.js';
import { ExecutionsController } from './executions/executions.controller.js';
import { ExecutionsHandler } from './executions/executions.handler.js';
import { ExecutionsService } from './executions/executions.service.js';
import { RetentionJob } from './executions/retention.job.js';
import { DefinitionValidator } from './workflows/definition/definition.validator.js';
import { WorkflowsController } from './workflows/workflows.controller.js';
import { WorkflowsService } from './workflows/workflows.service.js';

@Module({
  controllers: [WorkflowsController, ExecutionsController, ExecutionsHandler],
  providers: [
    { provide: RUN_CONFIG, useExisting: SERVICE_CONFIG },
    {
      provide: StepRegistry,
      useFactory: (bus: Bus) => {
        const registry = new StepRegistry();
        registry.register(...actionSteps(bus));
        return registry;
      },
      inject: [Bus],
    },
    DefinitionValidator,
    DefinitionsCache,
    WorkflowsService,
    ExecutionQueue,
    LocalRuns,
    ExecutionEvents,
    ExecutionStarter,
    ExecutionsService,
    ChildExecutions,
    ExecutionRunner,
    Reconciler,
    RetentionJob,
  ],
})
export class AppModule {}
