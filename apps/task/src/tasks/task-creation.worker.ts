import { Inject, Injectable } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import {
  AGENT_APPROVAL_OUTCOMES_QUEUE,
  NATS_CONNECTION,
  TASK_CREATE_QUEUE,
  TASK_OUTCOMES_QUEUE,
  QueueConsumer,
  hasTenant,
  type CreateTaskItem,
  type WorkItem,
  type WorkResult,
} from '@platform/messaging';
import { TasksService } from './tasks.service.js';

/**
 * Consumes the run service's task requests and the AI runtime's approval requests (JetStream:
 * kept while no task replica runs). The task is unique per execution and step path (or agent run
 * and tool call), so a repeated request makes nothing new; the item
 * is acknowledged once the task is committed.
 */
@Injectable()
export class TaskCreationWorker extends QueueConsumer<CreateTaskItem> {
  constructor(
    @Inject(NATS_CONNECTION) nc: NatsConnection,
    private readonly tasks: TasksService,
  ) {
    // The outcomes it will publish go to queues that must exist even before their consumers start.
    super(nc, TASK_CREATE_QUEUE, { concurrency: 64, failure: 'task request failed', ensure: [TASK_OUTCOMES_QUEUE, AGENT_APPROVAL_OUTCOMES_QUEUE] });
  }

  protected async handle({ data, context }: WorkItem<CreateTaskItem>): Promise<WorkResult> {
    if (!hasTenant(context)) return { ack: true };
    await this.tasks.create({ tenantId: context.tenantId, environmentId: context.environmentId, scopeId: context.scopeId ?? null }, data);
    return { ack: true };
  }
}
