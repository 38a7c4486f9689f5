export type ExecutionStatus = 'queued' | 'running' | 'waiting' | 'succeeded' | 'failed' | 'cancelled' | 'timed_out';
export const FINISHED: readonly ExecutionStatus[] = ['succeeded', 'failed', 'cancelled', 'timed_out'];

export interface ExecutionError {
  code: string;
  message: string;
  step_id: string | null;
}

export interface ExecutionRow {
  tenant_id: string;
  environment_id: string;
  id: string;
  scope_id: string | null;
  workflow_id: string;
  workflow_version: number;
  status: ExecutionStatus;
  input: Record<string, unknown>;
  output: unknown;
  error: ExecutionError | null;
  trigger_type: string;
  trigger_id: string | null;
  parent_execution_id: string | null;
  parent_step_path: string | null;
  idempotency_key: string | null;
  request_hash: string | null;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  timeout_at: Date;
  wake_at: Date | null;
}

export type StepStatus = 'running' | 'waiting' | 'succeeded' | 'failed' | 'skipped' | 'cancelled';

export interface StepRecord {
  id: string;
  path: string;
  step_id: string;
  type: string;
  status: StepStatus;
  attempt: number;
  input: unknown;
  output: unknown;
  error: (ExecutionError & { retryable?: boolean; final?: boolean }) | null;
  wake_at: Date | null;
  started_at: Date;
  finished_at: Date | null;
}

export interface LogLine {
  id: string;
  step_id: string | null;
  level: 'debug' | 'info' | 'warn' | 'error';
  message: string;
  data: Record<string, unknown> | null;
  created_at: Date;
}

/** What a work item on the queue carries: enough to open the right tenant transaction. */
export interface ExecutionWorkItem {
  executionId: string;
  tenantId: string;
  environmentId: string;
  scopeId: string | null;
}
