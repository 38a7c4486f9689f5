import {
  ExecutionStatusEvent,
  FileUploadedEvent,
  RunSubjects,
  StorageSubjects,
  TaskEvent,
  TaskSubjects,
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

const TASK_EVENT_TYPES = new Set<string>([TaskSubjects.taskCreated, TaskSubjects.taskAssigned, TaskSubjects.taskCompleted, TaskSubjects.taskExpired]);

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
  if (TASK_EVENT_TYPES.has(pattern)) {
    const e = validatePayload(TaskEvent, data);
    // A task is assigned again and again; the other facts happen once per task.
    const key = pattern === TaskSubjects.taskAssigned ? `event:${pattern}:${e.taskId}:${e.at}` : `event:${pattern}:${e.taskId}`;
    return {
      kind: 'event',
      type: pattern,
      key,
      at: new Date(e.at),
      sourceWorkflowId: null,
      payload: {
        type: pattern,
        task_id: e.taskId,
        task_type: e.type,
        status: e.status,
        title: e.title,
        execution_id: e.executionId,
        workflow_id: e.workflowId,
        step_path: e.stepPath,
        agent_run_id: e.agentRunId ?? null,
        assignee: e.assignee ?? null,
        decision: e.decision ?? null,
        completed_by: e.completedBy ?? null,
        due_at: e.dueAt ?? null,
        at: e.at,
      },
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
