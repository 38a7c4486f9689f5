import { Injectable, Logger } from '@nestjs/common';
import type { TenantContext } from '@platform/db';
import {
  Bus,
  RunSubjects,
  TaskSubjects,
  messageContext,
  type ExecutionStatusEvent,
  type MessageTenant,
  type TaskEvent,
  type WorkflowSummary,
} from '@platform/messaging';
import { NotificationsService } from '../notifications/notifications.service.js';

/** `settings.alerts.on_failure` or `settings.alerts.on_task` of a workflow: where its notices go. */
interface AlertTarget {
  channel_id: string;
  to?: string[];
}

function alertTarget(settings: Record<string, unknown> | undefined, which: 'on_failure' | 'on_task'): AlertTarget | null {
  const alerts = settings?.alerts as Record<string, unknown> | undefined;
  const target = alerts?.[which] as Partial<AlertTarget> | undefined;
  if (!target || typeof target.channel_id !== 'string') return null;
  const to = Array.isArray(target.to) ? target.to.filter((x): x is string => typeof x === 'string') : undefined;
  return { channel_id: target.channel_id, to: to?.length ? to : undefined };
}

function describeAssignee(assignee: TaskEvent['assignee']): string {
  if (assignee?.user_id) return `user ${assignee.user_id}`;
  if (assignee?.team_id) return `team ${assignee.team_id}`;
  if (assignee?.customer_id) return `customer ${assignee.customer_id}`;
  return 'nobody yet';
}

/**
 * The platform's own notices, sent through the same path as the API (source `platform`): a failed
 * or timed-out execution of a workflow whose settings ask for alerts (`alerts.on_failure`), and a
 * task of such a workflow created or assigned (`alerts.on_task`). Each is sent once (its
 * idempotency key), and over the tenant's limit it is recorded as `rate_limited`.
 */
@Injectable()
export class PlatformNoticesService {
  private readonly logger = new Logger(PlatformNoticesService.name);

  constructor(
    private readonly bus: Bus,
    private readonly notifications: NotificationsService,
  ) {}

  async executionFailed(tenant: MessageTenant, event: ExecutionStatusEvent): Promise<void> {
    const ctx = tenantWide(tenant);
    const workflow = await this.workflow(ctx, event.workflowId, `execution ${event.executionId}`);
    const alert = alertTarget(workflow?.settings, 'on_failure');
    if (!workflow || !alert) return;
    await this.send(ctx, alert, `execution ${event.executionId}`, {
      template: 'execution_failed',
      variables: {
        workflow_name: workflow.name,
        workflow_id: workflow.id,
        execution_id: event.executionId,
        status: event.status,
        failed_at: event.at,
        error_code: event.error?.code ?? event.status,
        error_message: event.error?.message ?? `the execution ended ${event.status}`,
        step_id: event.error?.step_id ?? null,
      },
      idempotencyKey: `alert:execution_failed:${event.executionId}`,
    });
  }

  /** `task.task.created` and `task.task.assigned`: a task is waiting for someone. */
  async taskNotice(tenant: MessageTenant, subject: string, event: TaskEvent): Promise<void> {
    const ctx = tenantWide(tenant);
    // An agent run's approval task has no workflow whose settings could ask for a notice.
    if (!event.workflowId) return;
    const workflow = await this.workflow(ctx, event.workflowId, `task ${event.taskId}`);
    const alert = alertTarget(workflow?.settings, 'on_task');
    if (!workflow || !alert) return;
    const assigned = subject === TaskSubjects.taskAssigned;
    await this.send(ctx, alert, `task ${event.taskId}`, {
      template: assigned ? 'task_assigned' : 'task_created',
      variables: {
        task_title: event.title,
        task_id: event.taskId,
        assignee: describeAssignee(event.assignee),
        due_at: event.dueAt ?? null,
        workflow_name: workflow.name,
        execution_id: event.executionId,
      },
      // A task is assigned again and again; it is created once.
      idempotencyKey: assigned ? `notice:task_assigned:${event.taskId}:${event.at}` : `notice:task_created:${event.taskId}`,
    });
  }

  private async workflow(ctx: TenantContext, workflowId: string, what: string): Promise<WorkflowSummary | null> {
    try {
      return await this.bus.request(RunSubjects.workflowsGet, { workflowId }, messageContext(ctx));
    } catch (error) {
      this.logger.warn(`no notice for ${what}: workflow lookup failed: ${(error as Error).message}`);
      return null;
    }
  }

  private async send(
    ctx: TenantContext,
    alert: AlertTarget,
    what: string,
    notice: { template: string; variables: Record<string, unknown>; idempotencyKey: string },
  ): Promise<void> {
    try {
      await this.notifications.send(ctx, { channelId: alert.channel_id, to: alert.to, ...notice, source: 'platform' });
    } catch (error) {
      this.logger.warn(`notice for ${what} not sent: ${(error as Error).message}`);
    }
  }
}

/** Notices are the workflow owner's: a tenant-wide context reaches the channel whoever ran it. */
const tenantWide = (tenant: MessageTenant): TenantContext => ({ tenantId: tenant.tenantId, environmentId: tenant.environmentId, scopeId: null });
