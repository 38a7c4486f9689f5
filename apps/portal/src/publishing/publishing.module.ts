import { Module } from '@nestjs/common';
import { CustomerDirectory } from '../customers/customer-directory.js';
import { PublishedWorkflowsController } from './published-workflows.controller.js';
import { PublishedWorkflowsService } from './published-workflows.service.js';

/** Published workflows and customer runs of them. */
@Module({
  controllers: [PublishedWorkflowsController],
  providers: [CustomerDirectory, PublishedWorkflowsService],
  exports: [PublishedWorkflowsService, CustomerDirectory],
})
export class PublishingModule {}
