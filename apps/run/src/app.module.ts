import { Module } from '@nestjs/common';
import { SERVICE_CONFIG } from '@platform/service';
import { Bus } from '@platform/messaging';
import { RUN_CONFIG } from './config/run.config.js';
import { DEFINITION_SOURCE, EXECUTION_STORE } from './engine/engine.ports.js';
import { ExecutionEvents } from './engine/execution.events.js';
import { ChildExecutions } from './engine/runner/child-executions.js';
import { DefinitionsCache } from './engine/runner/definitions.cache.js';
import { ExecutionContextLoader } from './engine/runner/execution-context.loader.js';
import { ExecutionQueue } from './engine/runner/execution.queue.js';
import { ExecutionRunner } from './engine/runner/execution.runner.js';
import { ExecutionSettler } from './engine/runner/execution.settler.js';
import { LeaseKeeper } from './engine/runner/lease.keeper.js';
import { QueueWorker } from './engine/runner/queue.worker.js';
import { Reconciler } from './engine/runner/reconciler.js';
import { RunDispatcher } from './engine/runner/run.dispatcher.js';
import { RunInterpreter } from './engine/runner/run.interpreter.js';
import { WorkerIdentity } from './engine/runner/worker.identity.js';
import { StepRegistry } from './engine/step-registry.js';
import { actionSteps } from './engine/steps/index.js';
import { ExecutionStoreService } from './executions/execution-store.service.js';
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
    WorkflowsService,
    ExecutionStoreService,
    { provide: EXECUTION_STORE, useExisting: ExecutionStoreService },
    { provide: DEFINITION_SOURCE, useExisting: WorkflowsService },
    WorkerIdentity,
    DefinitionsCache,
    ExecutionQueue,
    ExecutionEvents,
    LeaseKeeper,
    ExecutionContextLoader,
    ChildExecutions,
    RunInterpreter,
    ExecutionSettler,
    ExecutionRunner,
    RunDispatcher,
    QueueWorker,
    Reconciler,
    ExecutionStarter,
    ExecutionsService,
    RetentionJob,
  ],
})
export class AppModule {}
