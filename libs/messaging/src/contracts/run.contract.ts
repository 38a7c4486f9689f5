import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsInt,
  IsISO8601,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  Length,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import type { WorkQueueSpec } from '../jetstream/work-queue.js';

/** Subjects the run service answers or emits. */
export const RunSubjects = {
  /** Request: start an execution (triggers, webhooks, portal). */
  executionsStart: 'run.executions.start',
  /** Request: an execution's status, output and error (webhooks answer sync deliveries with it). */
  executionsGet: 'run.executions.get',
  /** Request: one workflow of the caller's tenant (triggers and webhooks check the workflow they are given). */
  workflowsGet: 'run.workflows.get',
  /** Request: counts of the caller's executions in a period (portal dashboards), from indexed queries. */
  executionsReport: 'run.executions.report',
  /** Request: the caller's most recent executions, newest first (portal embedded run history). */
  executionsRecent: 'run.executions.recent',
  /** Request: create a workflow in the caller's tenant, checked like `POST /api/v1/workflow/workflows` (the catalog instantiates templates with it). */
  workflowsCreate: 'run.workflows.create',
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

export const TRIGGER_TYPES = ['api', 'schedule', 'event', 'webhook', 'portal', 'subworkflow'] as const;
export type TriggerType = (typeof TRIGGER_TYPES)[number];

/**
 * An execution's status, as `run.executions.status` stores it (its check constraint allows exactly
 * these; apps/run/test/vocabularies.store.int-spec.ts holds the two together).
 */
export const EXECUTION_STATUSES = ['queued', 'running', 'waiting', 'succeeded', 'failed', 'cancelled', 'timed_out'] as const;
export type ExecutionStatus = (typeof EXECUTION_STATUSES)[number];

/** The statuses an execution ends in: it never changes again. */
export const FINISHED_EXECUTION_STATUSES = ['succeeded', 'failed', 'cancelled', 'timed_out'] as const satisfies readonly ExecutionStatus[];
export type FinishedExecutionStatus = (typeof FINISHED_EXECUTION_STATUSES)[number];

/** Whether an execution in this status has ended. Takes any string: statuses also arrive unchecked (HTTP answers, old messages). */
export function isFinished(status: string): status is FinishedExecutionStatus {
  return (FINISHED_EXECUTION_STATUSES as readonly string[]).includes(status);
}

export class CancelRequestedEvent {
  @IsUUID()
  executionId!: string;
}

export class ExecutionTrigger {
  @IsIn(TRIGGER_TYPES)
  type!: TriggerType;

  @IsOptional()
  @IsString()
  @MaxLength(255)
  id!: string | null;
}

/**
 * The largest run input (serialised as JSON) the run service takes unless RUN_INPUT_LIMIT_BYTES
 * says otherwise; a starter that can check it first (the webhook service, at intake) reads the
 * same setting.
 */
export const DEFAULT_RUN_INPUT_LIMIT_BYTES = 1024 * 1024;

/** `run.executions.start`: triggers, webhooks and the portal start runs with it. */
export class StartExecutionRequest {
  @IsUUID()
  workflowId!: string;

  @IsObject()
  input!: Record<string, unknown>;

  @ValidateNested()
  @Type(() => ExecutionTrigger)
  trigger!: ExecutionTrigger;

  @IsOptional()
  @IsString()
  @Length(1, 255)
  idempotencyKey?: string;

  /**
   * The id the run is to have, chosen by the caller (a webhook delivery answers with it before
   * the run exists). Starting again with the same id answers the first run: the id is then the
   * idempotency key, and costs no extra round trip.
   */
  @IsOptional()
  @IsUUID()
  executionId?: string;

  /** The mode of the key that asked for the run, when one did (the portal): a test key's run is metered as sandbox usage. */
  @IsOptional()
  @IsIn(['live', 'test'])
  keyMode?: 'live' | 'test';
}

/** `run.executions.get`: one execution of the caller's tenant (404 otherwise). */
export class GetExecutionRequest {
  @IsUUID()
  executionId!: string;
}

/** `run.workflows.get`: one workflow of the caller's tenant (404 otherwise, also for another tenant's). */
export class GetWorkflowRequest {
  @IsUUID()
  workflowId!: string;
}

/** `run.workflows.create`: the body of `POST /api/v1/workflow/workflows`. */
export class CreateWorkflowMessage {
  @IsString()
  @Length(1, 200)
  name!: string;

  @IsOptional()
  @IsString()
  @Length(0, 2000)
  description?: string | null;

  @IsArray()
  steps!: Record<string, unknown>[];

  @IsOptional()
  @IsObject()
  input_schema?: Record<string, unknown> | null;

  @IsOptional()
  @IsObject()
  settings?: Record<string, unknown>;
}

/** The created workflow, as `GET /api/v1/workflow/workflows/{id}` answers it. */
export type CreatedWorkflow = Record<string, unknown> & { id: string; name: string; version: number };

export interface WorkflowSummary {
  id: string;
  name: string;
  status: string;
  /** The current version's settings (the notification service reads `alerts` from them). */
  settings?: Record<string, unknown>;
  /** The current version's input schema (the portal's default form), null when it has none. */
  input_schema?: Record<string, unknown> | null;
}

/** `run.executions.report`: executions created in [from, to), in the caller's scope, optionally one customer's. */
export class ExecutionsReportRequest {
  @IsISO8601()
  from!: string;

  @IsISO8601()
  to!: string;

  @IsOptional()
  @IsUUID()
  customerId?: string;

  /** How many workflows the slowest and most failing lists hold. */
  @IsInt()
  @Min(1)
  @Max(50)
  top!: number;
}

export interface ExecutionsReport {
  /** One entry per UTC day and status that has executions. */
  by_day: { date: string; status: ExecutionStatus; count: number }[];
  by_status: Partial<Record<ExecutionStatus, number>>;
  total: number;
  /** Finished executions (succeeded, failed, cancelled, timed_out), by workflow: average and slowest duration. */
  slowest: { workflow_id: string; finished: number; avg_ms: number; max_ms: number }[];
  /** Workflows with failed or timed-out executions, most failures first. */
  most_failing: { workflow_id: string; failed: number; total: number }[];
}

/** `run.executions.recent`: the caller's latest executions (a customer scope sees only its own). */
export class RecentExecutionsRequest {
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @IsUUID('all', { each: true })
  workflowIds?: string[];

  @IsInt()
  @Min(1)
  @Max(100)
  limit!: number;
}

export interface RecentExecution extends ExecutionSummary {
  workflow_id: string;
  created_at: string;
  finished_at: string | null;
}

export interface ExecutionSummary {
  id: string;
  /** The workflow it runs (the portal checks an embedded view's run belongs to its workflow). */
  workflow_id?: string;
  status: ExecutionStatus;
  output: unknown;
  error: { code: string; message: string; step_id: string | null } | null;
}

export interface StartExecutionResponse {
  runId: string;
  status: ExecutionStatus;
}

export class ExecutionErrorSummary {
  @IsString()
  code!: string;

  @IsString()
  message!: string;

  @IsOptional()
  @IsString()
  step_id!: string | null;
}

/** `run.execution.started|completed|failed|cancelled|timed_out`. */
export class ExecutionStatusEvent {
  @IsUUID()
  executionId!: string;

  @IsUUID()
  workflowId!: string;

  @IsIn(EXECUTION_STATUSES)
  status!: ExecutionStatus;

  @IsOptional()
  @IsUUID()
  customerId!: string | null;

  @IsISO8601()
  at!: string;

  @IsOptional()
  @ValidateNested()
  @Type(() => ExecutionErrorSummary)
  error?: ExecutionErrorSummary | null;
}

/** What a work item on the run queue carries: enough to open the right tenant transaction. */
export class ExecutionWorkItem {
  @IsUUID()
  executionId!: string;

  @IsUUID()
  tenantId!: string;

  @IsUUID()
  environmentId!: string;

  @IsOptional()
  @IsUUID()
  scopeId!: string | null;
}

export interface RunRequests {
  [RunSubjects.executionsStart]: { request: StartExecutionRequest; response: StartExecutionResponse };
  [RunSubjects.executionsGet]: { request: GetExecutionRequest; response: ExecutionSummary };
  [RunSubjects.workflowsGet]: { request: GetWorkflowRequest; response: WorkflowSummary };
  [RunSubjects.executionsReport]: { request: ExecutionsReportRequest; response: ExecutionsReport };
  [RunSubjects.executionsRecent]: { request: RecentExecutionsRequest; response: { data: RecentExecution[] } };
  [RunSubjects.workflowsCreate]: { request: CreateWorkflowMessage; response: CreatedWorkflow };
}

export interface RunEvents {
  [RunSubjects.executionStarted]: ExecutionStatusEvent;
  [RunSubjects.executionCompleted]: ExecutionStatusEvent;
  [RunSubjects.executionFailed]: ExecutionStatusEvent;
  [RunSubjects.executionCancelled]: ExecutionStatusEvent;
  [RunSubjects.executionTimedOut]: ExecutionStatusEvent;
  [RunSubjects.executionCancelRequested]: CancelRequestedEvent;
}

export const RUN_WORK_QUEUE: WorkQueueSpec = {
  stream: 'RUN_WORK',
  subjects: [RunSubjects.work],
  consumer: 'run-workers',
  maxDeliver: 20,
  ackWaitMs: 60_000,
  deadLetterSubject: 'run.work.dead',
  payload: ExecutionWorkItem,
};
