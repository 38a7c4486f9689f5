/** Subjects the run service answers or emits. */
export const RunSubjects = {
  /** Request: start an execution (triggers, webhooks, portal). */
  executionsStart: 'run.executions.start',
  executionStarted: 'run.execution.started',
  executionCompleted: 'run.execution.completed',
  executionFailed: 'run.execution.failed',
  executionCancelled: 'run.execution.cancelled',
} as const;

export interface StartExecutionRequest {
  workflowId: string;
  input: Record<string, unknown>;
  trigger: { type: 'api' | 'schedule' | 'event' | 'webhook' | 'portal' | 'subworkflow'; id: string | null };
  idempotencyKey?: string;
}

export interface StartExecutionResponse {
  runId: string;
  status: string;
}

export interface ExecutionStatusEvent {
  executionId: string;
  workflowId: string;
  status: string;
  at: string;
}

export interface RunRequests {
  [RunSubjects.executionsStart]: { request: StartExecutionRequest; response: StartExecutionResponse };
}

export interface RunEvents {
  [RunSubjects.executionStarted]: ExecutionStatusEvent;
  [RunSubjects.executionCompleted]: ExecutionStatusEvent;
  [RunSubjects.executionFailed]: ExecutionStatusEvent;
  [RunSubjects.executionCancelled]: ExecutionStatusEvent;
}
