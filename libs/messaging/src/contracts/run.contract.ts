/** Subjects the run service answers or emits. */
export const RunSubjects = {
  /** Request: start an execution (triggers, webhooks, portal). */
  executionsStart: 'run.executions.start',
  executionStarted: 'run.execution.started',
  executionCompleted: 'run.execution.completed',
  executionFailed: 'run.execution.failed',
  executionCancelled: 'run.execution.cancelled',
  executionTimedOut: 'run.execution.timed_out',
  /** Event, fanned out to every run replica: abort this execution's running step now. */
  executionCancelRequested: 'run.execution.cancel_requested',
  /** Work queue (JetStream): executions due to run. */
  work: 'run.work.executions',
} as const;

export const RUN_WORK_QUEUE = {
  stream: 'RUN_WORK',
  subjects: ['run.work.executions'],
  consumer: 'run-workers',
  maxDeliver: 20,
  ackWaitMs: 60_000,
  deadLetterSubject: 'run.work.dead',
};

export interface CancelRequestedEvent {
  executionId: string;
}

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
  customerId: string | null;
  at: string;
  error?: { code: string; message: string; step_id: string | null } | null;
}

export interface RunRequests {
  [RunSubjects.executionsStart]: { request: StartExecutionRequest; response: StartExecutionResponse };
}

export interface RunEvents {
  [RunSubjects.executionStarted]: ExecutionStatusEvent;
  [RunSubjects.executionCompleted]: ExecutionStatusEvent;
  [RunSubjects.executionFailed]: ExecutionStatusEvent;
  [RunSubjects.executionCancelled]: ExecutionStatusEvent;
  [RunSubjects.executionTimedOut]: ExecutionStatusEvent;
  [RunSubjects.executionCancelRequested]: CancelRequestedEvent;
}
