import { Module } from '@nestjs/common';
import { RunConfigModule } from '../config/run-config.module.js';
import { ExecutionEvents } from './execution.events.js';
import { ChildExecutions } from './runner/child-executions.js';
import { DefinitionsCache } from './runner/definitions.cache.js';
import { ExecutionContextLoader } from './runner/execution-context.loader.js';
import { ExecutionQueue } from './runner/execution.queue.js';
import { ExecutionRunner } from './runner/execution.runner.js';
import { ExecutionSettler } from './runner/execution.settler.js';
import { HumanTasks } from './runner/human-tasks.js';
import { LeaseKeeper } from './runner/lease.keeper.js';
import { PureRuns } from './runner/pure-runs.js';
import { QueueWorker } from './runner/queue.worker.js';
import { Reconciler } from './runner/reconciler.js';
import { RunDispatcher } from './runner/run.dispatcher.js';
import { RunInterpreter } from './runner/run.interpreter.js';
import { WorkerIdentity } from './runner/worker.identity.js';
import { StepsModule } from './steps/steps.module.js';

/**
 * The execution engine: the queue worker, the dispatcher, the runner and its parts, the
 * reconciler. Its ports (EXECUTION_STORE, DEFINITION_SOURCE) are not bound here: the engine knows
 * no implementation of them; EnginePortsModule binds them for the whole service.
 */
@Module({
  imports: [RunConfigModule, StepsModule],
  providers: [
    WorkerIdentity,
    DefinitionsCache,
    ExecutionQueue,
    ExecutionEvents,
    LeaseKeeper,
    ExecutionContextLoader,
    ChildExecutions,
    HumanTasks,
    RunInterpreter,
    ExecutionSettler,
    ExecutionRunner,
    PureRuns,
    RunDispatcher,
    QueueWorker,
    Reconciler,
  ],
  exports: [RunDispatcher, ExecutionEvents],
})
export class EngineModule {}
