import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import {
  AGENT_APPROVAL_OUTCOMES_QUEUE,
  NATS_CONNECTION,
  TASK_CREATE_QUEUE,
  TASK_OUTCOMES_QUEUE,
  ensureWorkQueue,
  hasTenant,
  startWorker,
  type CreateTaskItem,
  type Worker,
} from '@platform/messaging';
import { TasksService } from './tasks.service.js';

/**
 * Consumes the run service's task requests and the AI runtime's approval requests (JetStream:
 * kept while no task replica runs). The task is unique per execution and step path (or agent run
 * and tool call), so a repeated request makes nothing new; the item
 * is acknowledged once the task is committed.
 */
@Injectable()
export class TaskCreationWorker implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(TaskCreationWorker.name);
  private worker?: Worker;

  constructor(
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    private readonly tasks: TasksService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await ensureWorkQueue(this.nc, TASK_OUTCOMES_QUEUE);
    await ensureWorkQueue(this.nc, AGENT_APPROVAL_OUTCOMES_QUEUE);
    await ensureWorkQueue(this.nc, TASK_CREATE_QUEUE);
    this.worker = await startWorker<CreateTaskItem>(
      this.nc,
      TASK_CREATE_QUEUE,
      async ({ data, context }) => {
        if (!hasTenant(context)) return { ack: true };
        await this.tasks.create({ tenantId: context.tenantId, environmentId: context.environmentId, scopeId: context.scopeId ?? null }, data);
        return { ack: true };
      },
      { concurrency: 64, onError: (error) => this.logger.error(`task request failed: ${String(error)}`) },
    );
  }

  async onModuleDestroy(): Promise<void> {
    await this.worker?.stop();
  }
}
