import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import {
  AccountSubjects,
  Bus,
  NATS_CONNECTION,
  TASK_CREATE_QUEUE,
  TaskSubjects,
  enqueueWork,
  ensureWorkQueue,
  messageContext,
  type CreateTaskItem,
  type TaskAssignee,
} from '@platform/messaging';
import { runContext, tenantOf, type ExecutionRow } from '../execution.records.js';
import type { HumanTaskSpec } from '../interpreter/human-task.js';

export type HumanTaskRequest = HumanTaskSpec & { stepId: string; stepPath: string; type: 'approval' | 'form' };

/**
 * Approval and form steps ask the task service for their task through a JetStream work queue: a
 * task service that is down receives it when it starts. The message id (and the task's unique
 * key in the task service) is the execution and step path, so asking again creates nothing.
 */
@Injectable()
export class HumanTasks implements OnApplicationBootstrap {
  constructor(
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    private readonly bus: Bus,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await ensureWorkQueue(this.nc, TASK_CREATE_QUEUE);
  }

  /**
   * Asks the account service, in the execution's tenant, whether the task's assignee and its
   * escalation target are a user or team of the tenant (a customer assignee is the tenant's to
   * name). Row-level security answers the same for another tenant's id as for an unknown one, and
   * so does the reason: the step cannot tell them apart.
   */
  async unknownAssignee(execution: ExecutionRow, task: Pick<HumanTaskSpec, 'assignee' | 'onExpiry'>): Promise<string | undefined> {
    const people: [string, TaskAssignee][] = [];
    if (task.assignee) people.push(['assignee', task.assignee]);
    if (task.onExpiry && typeof task.onExpiry === 'object') people.push(['on_expiry.escalate_to', task.onExpiry.escalate_to]);
    for (const [where, who] of people) {
      const query = who.user_id ? { userId: who.user_id } : who.team_id ? { teamId: who.team_id } : undefined;
      if (!query) continue;
      const answer = await this.bus.request(
        AccountSubjects.directoryCheck,
        query,
        messageContext({ ...tenantOf(execution), scopeId: null }, runContext(execution)),
      );
      if (!answer.ok) return query.userId ? `${where}.user_id is not a user of this tenant` : `${where}.team_id is not a team of this tenant`;
    }
    return undefined;
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
