import { Global, Module } from '@nestjs/common';
import { DEFINITION_SOURCE, EXECUTION_STORE } from './engine/engine.ports.js';
import { ExecutionStoreModule } from './executions/execution-store.module.js';
import { ExecutionStoreService } from './executions/execution-store.service.js';
import { WorkflowsModule } from './workflows/workflows.module.js';
import { WorkflowsService } from './workflows/workflows.service.js';

/**
 * The one place the engine's ports meet their implementations. Global because the engine cannot
 * import it: this module imports executions/ and workflows/, which import the engine.
 */
@Global()
@Module({
  imports: [ExecutionStoreModule, WorkflowsModule],
  providers: [
    { provide: EXECUTION_STORE, useExisting: ExecutionStoreService },
    { provide: DEFINITION_SOURCE, useExisting: WorkflowsService },
  ],
  exports: [EXECUTION_STORE, DEFINITION_SOURCE],
})
export class EnginePortsModule {}
