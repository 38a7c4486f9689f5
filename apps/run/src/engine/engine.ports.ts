import type { TenantContext } from '@platform/db';
import type {
  Claim,
  ClaimedExecution,
  RunAhead,
  DueExecution,
  ExecutionRow,
  WaitingStepEnd,
  WaitingStepResolution,
  RunnableDefinition,
  StartRequest,
  StartResult,
  StepCommit,
  StepRecord,
} from './execution.records.js';

/**
 * The engine's two ports. The engine depends on these interfaces only; executions/ and workflows/
 * implement them, and the service binds them once (engine-ports.module.ts), so every import
 * points into the engine and none out of it.
 */
export const EXECUTION_STORE = Symbol('EXECUTION_STORE');
export const DEFINITION_SOURCE = Symbol('DEFINITION_SOURCE');

/**
 * Where executions are kept. Every write a worker makes carries its lease (`worker`): a worker
 * that lost it (cancel, takeover after a pause) is told so (false) and records nothing.
 */
export interface ExecutionStore {
  /**
   * Commits a new execution, or finds the first run of a repeated Idempotency-Key. With `claim`
   * the row is born running under that lease; with `ahead` too, the run may be done before the
   * row and written with it, settled (a new row only, without a parent or an Idempotency-Key).
   * Refuses an unknown or disabled workflow.
   */
  start(ctx: TenantContext, request: StartRequest, claim: Claim | null, ahead?: RunAhead | null): Promise<StartResult>;
  /** Takes an execution that is due (queued, waiting and woken, or running with an expired lease). */
  claim(ctx: TenantContext, executionId: string, claim: Claim): Promise<ClaimedExecution | undefined>;
  renewLease(execution: ExecutionRow, claim: Claim): Promise<boolean>;
  steps(execution: ExecutionRow): Promise<StepRecord[]>;
  /** One round trip: a step record, its log lines and, with `settle`, the new state; false when `worker` no longer holds the lease. */
  commit(execution: ExecutionRow, worker: string, commit: StepCommit): Promise<boolean>;
  /**
   * The one write path of a waiting step's end (task outcomes and child executions alike, one round
   * trip: run.resolve_task_step): records it and makes the execution due; with `claim`, takes the
   * execution for that worker in the same statement. Undefined when the execution is not found.
   */
  resolveTaskStep(ctx: TenantContext, end: WaitingStepEnd, claim: Claim | null): Promise<WaitingStepResolution | undefined>;
  /** Across tenants: executions due to run again (woken, lost on the queue, lease expired). */
  due(): Promise<DueExecution[]>;
  /** Across tenants: waiting and queued executions past their deadline, now timed out. */
  timeOutOverdue(): Promise<ExecutionRow[]>;
}

/** Where workflow versions come from (immutable: the engine caches them). */
export interface DefinitionSource {
  definition(ctx: TenantContext, workflowId: string, version: number): Promise<RunnableDefinition | undefined>;
}
