import { Module } from '@nestjs/common';
import { RunConfigModule } from '../config/run-config.module.js';
import { ExecutionStoreService } from './execution-store.service.js';
import { FinishedStarts } from './finished-starts.js';

/**
 * The engine's ExecutionStore on its own: EnginePortsModule binds the engine to it, and
 * ExecutionsModule (which imports the engine) uses it too, without a cycle between the modules.
 */
@Module({
  imports: [RunConfigModule],
  providers: [ExecutionStoreService, FinishedStarts],
  exports: [ExecutionStoreService],
})
export class ExecutionStoreModule {}
