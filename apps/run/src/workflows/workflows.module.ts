import { Module } from '@nestjs/common';
import { UsageOutboxModule } from '@platform/service';
import { StepsModule } from '../engine/steps/steps.module.js';
import { DefinitionValidator } from './definition/definition.validator.js';
import { WorkflowsController } from './workflows.controller.js';
import { WorkflowsHandler } from './workflows.handler.js';
import { WorkflowsService } from './workflows.service.js';

/** Workflows and their immutable versions; WorkflowsService is also the engine's DefinitionSource. */
@Module({
  imports: [StepsModule, UsageOutboxModule],
  controllers: [WorkflowsController, WorkflowsHandler],
  providers: [DefinitionValidator, WorkflowsService],
  exports: [WorkflowsService],
})
export class WorkflowsModule {}
