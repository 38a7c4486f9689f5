import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import { NATS_CONNECTION, TASK_CREATE_QUEUE, TaskSubjects, enqueueWork, ensureWorkQueue, type CreateTaskItem } from '@platform/messaging';
import { runContext, type ExecutionRow } from '../execution.records.js';
import type { HumanTaskSpec } from '../interpreter/human-task.js';

export type HumanTaskRequest = HumanTaskSpec & { stepId: string; stepPath: string; type: 'approval' | 'form' };

/**
 * Approval and form steps ask the task service for their task through a JetStream work queue: a
 * task service that is down receives it when it starts. The message id (and the task's unique
 * key in the task service) is the execution and step path, so asking again creates nothing.
 */
@Injectable()
export class HumanTasks implements OnApplicationBootstrap {
  constructor(@Inject(NATS_CONNECTION) private readonly nc: NatsConnection) {}

  async onApplicationBootstrap(): Promise<void> {
    await ensureWorkQueue(this.nc, TASK_CREATE_QUEUE);
  }

  async request(execution: ExecutionRow, workflowName: string | undefined, task: HumanTaskRequest): Promise<void> {
    const item: CreateTaskItem = {
      executionId: execution.id,
      workflowId: execution.workflow_id,
      workflowName: workflowName ?? '',
      stepId: task.stepId,
      stepPath: task.stepPath,
      type: task.type,
      title: task.title,
      description: task.description,
      assignee: task.assignee,
      form: task.form,
      context: task.context,
      dueAt: task.dueAt,
      onExpiry: task.onExpiry,
    };
    const ctx = runContext(execution);
    await enqueueWork(this.nc, TaskSubjects.tasksCreate, item, `task:${execution.id}:${task.stepPath}`, {
      requestId: ctx.requestId,
      actor: ctx.actor,
      tenantId: execution.tenant_id,
      environmentId: execution.environment_id,
      scopeId: execution.scope_id,
    });
  }
}
