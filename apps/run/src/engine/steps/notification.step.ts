import { createHash } from 'node:crypto';
import { Bus, BusError, NotificationSubjects, messageContext, type SendNotificationRequest } from '@platform/messaging';
import { StepError, type StepContext, type StepDefinition, type StepExecutor, type StepProblem } from './step-executor.js';

/** The output of a notification step. */
export interface NotificationStepOutput {
  notification_id: string;
  status: string;
}

/**
 * Sends a notification through the notification service (`notification.notifications.send`), the
 * same path as `POST /notifications/send`: input `{ channel_id, to?, subject?, body?, template?,
 * variables?, idempotency_key? }`. The step's output is `{ notification_id, status }` once the
 * notification is accepted; delivery goes on asynchronously. Without an idempotency key, the
 * execution, the step and the evaluated input make one, so a retried or resumed step never sends twice.
 */
export class NotificationStep implements StepExecutor {
  readonly type = 'notification';

  constructor(private readonly bus: Bus) {}

  validate(step: StepDefinition): StepProblem[] {
    const input = step.input ?? {};
    const problems: StepProblem[] = [];
    if (!('channel_id' in input)) problems.push({ path: 'input.channel_id', message: 'is required' });
    if (!('body' in input) && !('template' in input)) problems.push({ path: 'input.body', message: 'is required unless input.template is given' });
    return problems;
  }

  async execute(input: Record<string, unknown>, step: StepDefinition, context: StepContext): Promise<NotificationStepOutput> {
    const request = {
      channelId: input.channel_id,
      to: typeof input.to === 'string' ? [input.to] : input.to,
      subject: input.subject,
      body: input.body,
      template: input.template,
      variables: input.variables,
      idempotencyKey: input.idempotency_key ?? `run:${context.executionId}:${step.id}:${digest(input)}`,
      source: 'workflow',
    } as SendNotificationRequest;
    try {
      const message = messageContext(context.tenant, { requestId: context.tenant.requestId, actor: `run:execution:${context.executionId}` });
      const queued = await this.bus.request(NotificationSubjects.notificationsSend, request, message, { timeoutMs: 15_000 });
      context.log('info', `notification ${queued.id} queued`, { notification_id: queued.id });
      return { notification_id: queued.id, status: queued.status };
    } catch (error) {
      if (error instanceof BusError && error.code === 'remote' && error.remote && error.remote.status < 500) {
        // Over the tenant's sending limit: worth retrying later; anything else is the definition's fault.
        throw new StepError(error.remote.code, error.remote.message, error.remote.status === 429, { status: error.remote.status });
      }
      throw new StepError('notification_unavailable', (error as Error).message, true);
    }
  }
}

function digest(input: Record<string, unknown>): string {
  return createHash('sha256').update(JSON.stringify(input)).digest('base64url').slice(0, 22);
}
