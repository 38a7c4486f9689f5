import { ValidationFailedError } from '@platform/common';
import type { Bus } from './bus.js';
import { BusError } from './bus.errors.js';
import { RunSubjects, type WorkflowSummary } from './contracts/run.contract.js';
import { WebhookSubjects, type LinkedWebhook } from './contracts/webhook.contract.js';
import { messageContext, type TenantRef } from './envelope.js';

/**
 * A reference to something another service owns, resolved in the caller's tenant: its absence is
 * a 400 naming the field, and another tenant's id reads exactly like an unknown one (the owner's
 * RLS answers 404 for both). An owner that cannot be reached is not the caller's fault: that
 * error goes on as it is (503).
 */
async function resolveReference<T>(lookup: () => Promise<T>, field: string, message: string): Promise<T> {
  try {
    return await lookup();
  } catch (error) {
    if (error instanceof BusError && error.code === 'remote' && error.remote?.status === 404) throw new ValidationFailedError([{ field, message }]);
    throw error;
  }
}

export function resolveWorkflow(bus: Bus, tenant: TenantRef, workflowId: string, field = 'workflow_id'): Promise<WorkflowSummary> {
  return resolveReference(() => bus.request(RunSubjects.workflowsGet, { workflowId }, messageContext(tenant)), field, 'no workflow with this id');
}

/** Also marks the webhook as firing triggers: its deliveries are announced from then on. */
export function linkWebhook(bus: Bus, tenant: TenantRef, webhookId: string, field = 'webhook_id'): Promise<LinkedWebhook> {
  return resolveReference(() => bus.request(WebhookSubjects.webhooksLink, { webhookId }, messageContext(tenant)), field, 'no webhook with this id');
}
