import { Injectable, Logger } from '@nestjs/common';
import { Bus, RunSubjects, messageContext, type ExecutionStatusEvent, type MessageTenant } from '@platform/messaging';
import { NotificationsService } from '../notifications/notifications.service.js';

/** `settings.alerts.on_failure` of a workflow: where its failed executions are announced. */
interface FailureAlert {
  channel_id: string;
  to?: string[];
}

function failureAlert(settings: Record<string, unknown> | undefined): FailureAlert | null {
  const alerts = settings?.alerts as { on_failure?: unknown } | undefined;
  const onFailure = alerts?.on_failure as Partial<FailureAlert> | undefined;
  if (!onFailure || typeof onFailure.channel_id !== 'string') return null;
  const to = Array.isArray(onFailure.to) ? onFailure.to.filter((x): x is string => typeof x === 'string') : undefined;
  return { channel_id: onFailure.channel_id, to: to?.length ? to : undefined };
}

/**
 * The platform's own notices, sent through the same path as the API (source `platform`): a failed
 * or timed-out execution of a workflow whose settings ask for alerts. Each is sent once per
 * execution (its idempotency key), and over the tenant's limit it is recorded as `rate_limited`.
 */
@Injectable()
export class PlatformNoticesService {
  private readonly logger = new Logger(PlatformNoticesService.name);

  constructor(
    private readonly bus: Bus,
    private readonly notifications: NotificationsService,
  ) {}

  async executionFailed(tenant: MessageTenant, event: ExecutionStatusEvent): Promise<void> {
    // Alerts are the workflow owner's: a tenant-wide context reaches the channel whoever ran it.
    const ctx = { tenantId: tenant.tenantId, environmentId: tenant.environmentId, scopeId: null };
    let workflow;
    try {
      workflow = await this.bus.request(RunSubjects.workflowsGet, { workflowId: event.workflowId }, messageContext(ctx));
    } catch (error) {
      this.logger.warn(`no alert for execution ${event.executionId}: workflow lookup failed: ${(error as Error).message}`);
      return;
    }
    const alert = failureAlert(workflow.settings);
    if (!alert) return;
    try {
      await this.notifications.send(ctx, {
        channelId: alert.channel_id,
        to: alert.to,
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
        source: 'platform',
      });
    } catch (error) {
      this.logger.warn(`alert for execution ${event.executionId} not sent: ${(error as Error).message}`);
    }
  }
}
