import type { RequestContext } from '@platform/common';
import type { TenantContext } from '@platform/db';
import type { ExecutionStatus } from '@platform/messaging';
import type { PendingUsage } from '@platform/service';
import type { StepDefinition } from './steps/step-executor.js';

/**
 * The records the engine works with. They are the engine's: executions/ stores them (through the
 * ExecutionStore port, engine.ports.ts) and answers with them, the engine never imports from it.
 */
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
  /** The request that started it (null for executions older than the column). */
  request_id: string | null;
}

/**
 * An execution a worker holds the lease of, what its status was before the claim and, when the
 * claim read them, the records of its earlier runs.
 */
export type ClaimedExecution = ExecutionRow & { previous_status: string; records?: StepRecord[] };

/** Enough of an execution to wake it: its id, tenant and request. */
export type ExecutionRef = Pick<ExecutionRow, 'id' | 'tenant_id' | 'environment_id' | 'scope_id' | 'request_id'>;

export function tenantOf(execution: Pick<ExecutionRow, 'tenant_id' | 'environment_id' | 'scope_id'>): TenantContext {
  return { tenantId: execution.tenant_id, environmentId: execution.environment_id, scopeId: execution.scope_id };
}

/**
 * The request context every run of an execution works in, on whichever replica and however late:
 * the request that started it (so its log lines and every message it causes carry that id), and
 * the execution itself as the actor. An execution older than its request_id column uses its own id.
 */
export function runContext(execution: Pick<ExecutionRow, 'id' | 'request_id'>): RequestContext {
  return { requestId: execution.request_id ?? execution.id, actor: `run:execution:${execution.id}` };
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

export interface NewStepRecord extends Omit<StepRecord, 'finished_at' | 'started_at'> {
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

/** An execution's new state, written when a run of it ends. */
export interface Settlement {
  status: ExecutionStatus;
  output?: unknown;
  error?: ExecutionError | null;
  wakeAt?: Date | null;
}

/** What one commit of a worker writes: a step record, the log lines gathered with it, and with `settle` the execution's new state. */
export interface StepCommit {
  /** In the order they ran. */
  steps: NewStepRecord[];
  logs: LogLine[];
  settle?: Settlement;
}

/**
 * A run done before its execution row exists (a workflow of pure steps, runner/pure-runs.ts): what
 * the start commits with the row, provided the workflow's current version is still `version`.
 */
export interface FinishedAhead extends StepCommit {
  version: number;
  /** When its first step began. */
  startedAt: Date;
  settle: Settlement;
}

/** The new execution as its start will write it, to run ahead of the row (undefined: it cannot be, run it as usual). */
export type RunAhead = (execution: DraftExecution) => Promise<FinishedAhead | undefined>;

/** What a start knows of its execution before the row exists. */
export type DraftExecution = Pick<
  ExecutionRow,
  'tenant_id' | 'environment_id' | 'scope_id' | 'id' | 'workflow_id' | 'input' | 'trigger_type' | 'trigger_id' | 'request_id'
>;

/** The end of a waiting step, decided outside the engine: a human task's outcome, or a child execution's end. */
export interface WaitingStepEnd {
  executionId: string;
  stepPath: string;
  /** The id of the step row that records the end. */
  stepRowId: string;
  status: 'succeeded' | 'failed';
  output: unknown;
  /** `final`: the step failed for good (no retry policy applies to an end decided outside). */
  error: (ExecutionError & { final?: boolean }) | null;
}

/**
 * What recording a waiting step's end did: `resolved` (recorded, and the execution made due, or
 * `claimed` for the caller), `early` (the step is not waiting yet: deliver the end again later),
 * `done` (recorded before, or the execution has finished).
 */
export interface WaitingStepResolution {
  state: 'resolved' | 'early' | 'done';
  scope_id: string | null;
  request_id: string | null;
  claimed?: ClaimedExecution;
}

/** A worker's lease on an execution. */
export interface Claim {
  worker: string;
  leaseMs: number;
}

/** Every way a run starts (API, execute, NATS from triggers/webhooks/portal, subworkflow). */
export interface StartRequest {
  workflowId: string;
  input: Record<string, unknown>;
  trigger: { type: string; id: string | null };
  idempotencyKey?: string;
  /** The caller's choice of id; a second start with it answers the first run. */
  executionId?: string;
  parent?: { executionId: string; stepPath: string };
  /** Defaults to the id of the request being handled. */
  requestId?: string;
  /**
   * Metered as one run (`runs`) when given: the fact is written with the execution row, in its
   * transaction. Starts from outside are metered; a subworkflow's child is not.
   */
  meter?: { keyMode?: 'live' | 'test' };
}

export interface StartResult {
  execution: ExecutionRow;
  /** false: a repeated Idempotency-Key found the first run. */
  created: boolean;
  /** The usage fact committed with a new metered run, for the starter to publish. */
  usage?: PendingUsage;
}

/** An execution the reconciler found due: woken by time, lost on the queue, or left by a dead worker. */
export interface DueExecution extends ExecutionRef {
  reason: 'wake' | 'lost' | 'lease';
}

/** What the engine runs of a workflow version. */
export interface RunnableDefinition {
  steps: StepDefinition[];
  name?: string;
}
