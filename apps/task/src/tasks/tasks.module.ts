import { Module } from '@nestjs/common';
import { resolveMasterKeys, type ServiceConfig } from '@platform/common';
import { SERVICE_CONFIG } from '@platform/service';
import { loadTaskConfig, TASK_CONFIG } from '../config/task.config.js';
import { CompletionService } from './completion.service.js';
import { DirectoryClient } from './directory.client.js';
import { ExecutionEventsHandler } from './execution-events.handler.js';
import { ExecutionWatchJob } from './execution-watch.job.js';
import { ExpiryJob } from './expiry.job.js';
import { FormValidator } from './form-validator.js';
import { LinkSigner } from './link-token.js';
import { OutboxReconcilerJob } from './outbox-reconciler.job.js';
import { OpenTasksHandler } from './open-tasks.handler.js';
import { OutcomePublisher } from './outcome-publisher.js';
import { PublicTasksController } from './public-tasks.controller.js';
import { TaskCreationWorker } from './task-creation.worker.js';
import { TaskLinksService } from './task-links.service.js';
import { TasksController } from './tasks.controller.js';
import { TasksService } from './tasks.service.js';

/** Human tasks: made for waiting executions, decided over HTTP or signed links, expired by deadline, and delivered back durably. */
@Module({
  // The public routes first: `/tasks/public/:token` must never be read as `/tasks/:id`.
  controllers: [PublicTasksController, TasksController, ExecutionEventsHandler, OpenTasksHandler],
  providers: [
    { provide: TASK_CONFIG, useFactory: () => loadTaskConfig() },
    { provide: LinkSigner, useFactory: (config: ServiceConfig) => new LinkSigner(resolveMasterKeys(config)), inject: [SERVICE_CONFIG] },
    { provide: FormValidator, useFactory: () => new FormValidator() },
    DirectoryClient,
    OutcomePublisher,
    TasksService,
    CompletionService,
    TaskLinksService,
    TaskCreationWorker,
    OutboxReconcilerJob,
    ExpiryJob,
    ExecutionWatchJob,
  ],
})
export class TasksModule {}
