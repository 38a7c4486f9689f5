import {
  ExecutionStatusEvent,
  FileUploadedEvent,
  RunSubjects,
  StorageSubjects,
  WebhookDeliveryReceivedEvent,
  WebhookSubjects,
  validatePayload,
} from '@platform/messaging';

/**
 * One platform event as triggers see it. `event` triggers match `type` (and their filter) and get
 * `payload`; `webhook` triggers match the webhook and get the delivery's request.
 */
export type PlatformEvent =
  | { kind: 'event'; type: string; key: string; at: Date; payload: Record<string, unknown>; sourceWorkflowId: string | null }
  | { kind: 'webhook'; webhookId: string; key: string; at: Date; request: Record<string, unknown>; truncated: boolean };

const RUN_EVENT_TYPES: Record<string, string> = {
  [RunSubjects.executionStarted]: 'run.execution.started',
  [RunSubjects.executionCompleted]: 'run.execution.succeeded',
  [RunSubjects.executionFailed]: 'run.execution.failed',
  [RunSubjects.executionCancelled]: 'run.execution.cancelled',
  [RunSubjects.executionTimedOut]: 'run.execution.timed_out',
};

/** The event a packet carries; undefined for one no trigger can use. Throws on a malformed payload. */
export function readPlatformEvent(pattern: string, data: unknown): PlatformEvent | undefined {
  const runType = RUN_EVENT_TYPES[pattern];
  if (runType) {
    const e = validatePayload(ExecutionStatusEvent, data);
    return {
      kind: 'event',
      type: runType,
      key: `event:${runType}:${e.executionId}`,
      at: new Date(e.at),
      sourceWorkflowId: e.workflowId,
      payload: {
        type: runType,
        execution_id: e.executionId,
        workflow_id: e.workflowId,
        status: e.status,
        customer_id: e.customerId ?? null,
        error: e.error ?? null,
        at: e.at,
      },
    };
  }
  if (pattern === StorageSubjects.fileUploaded) {
    const e = validatePayload(FileUploadedEvent, data);
    const at = new Date();
    return {
      kind: 'event',
      type: pattern,
      key: `event:${pattern}:${e.fileId}`,
      at,
      sourceWorkflowId: null,
      payload: { type: pattern, file_id: e.fileId, name: e.name, size: e.size, content_type: e.contentType ?? null, at: at.toISOString() },
    };
  }
  if (pattern === WebhookSubjects.deliveryReceived) {
    const e = validatePayload(WebhookDeliveryReceivedEvent, data);
    return {
      kind: 'webhook',
      webhookId: e.webhookId,
      key: `webhook:${e.deliveryId}`,
      at: new Date(e.receivedAt),
      request: e.request,
      truncated: e.truncated === true,
    };
  }
  return undefined;
}
