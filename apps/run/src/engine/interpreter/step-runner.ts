import type { ExecutionError, NewStepRecord } from '../execution.records.js';
import type { SecretRedactor } from '@platform/common';
import type { StepRegistry } from '../step-registry.js';
import type { LogLevel, StepContext, StepDefinition, StepSettings } from '../steps/step-executor.js';
import type { History } from './history.js';
import type { HumanTaskSpec } from './human-task.js';
import type { StepFailure } from './signals.js';

export interface InterpreterHost {
  executionId: string;
  /** Which process ran a step: in its log line, to trace work across replicas. */
  workerId: string;
  workflowId: string;
  tenant: StepContext['tenant'];
  settings: StepSettings;
  /** Aborted on cancel, execution timeout or a lost lease; the reason is an AbortRun. */
  signal: AbortSignal;
  redactor: SecretRedactor;
  /**
   * Commits a step record; throws AbortRun when the worker no longer owns the execution.
   * `last`: the final top-level step succeeded, its record may be committed with the settlement.
   * A pure step's record (StepExecutor.pure) may also wait for the next commit.
   */
  record(record: NewStepRecord, last?: boolean): Promise<void>;
  /** Commits the records still held back: called before a step with effects outside the run starts. */
  flush(): Promise<void>;
  log(stepId: string | null, level: LogLevel, message: string, data?: Record<string, unknown>): void;
  /** Starts (idempotently, by path) a child execution for a subworkflow step; returns its id. */
  startChild(workflowId: string, input: Record<string, unknown>, path: string): Promise<string>;
  /**
   * Why the task's assignee or escalation target is not a user or team of the execution's tenant
   * (another tenant's and an unknown id alike), or undefined when both are.
   */
  unknownAssignee(task: HumanTaskSpec): Promise<string | undefined>;
  /** Asks the task service (durably, idempotently by path) for an approval or form step's task. */
  requestTask(task: HumanTaskSpec & { stepId: string; stepPath: string; type: 'approval' | 'form' }): Promise<void>;
}

/** What the expressions of a step list see: earlier steps' outputs, `set` variables, a loop's item. */
export interface Scope {
  steps: Record<string, { output: unknown; error?: ExecutionError }>;
  vars: Record<string, unknown>;
  item?: unknown;
  index?: number;
}

export interface RecordedStep {
  status: NewStepRecord['status'];
  attempt: number;
  input?: unknown;
  output?: unknown;
  error?: NewStepRecord['error'];
  wake_at?: Date;
  started?: Date;
}

/**
 * What control steps (control-steps.ts) and an action step's attempts (attempts.ts) use of the
 * interpreter running them: the replay history, nested lists, expressions and step records.
 */
export interface StepRunner {
  readonly host: InterpreterHost;
  readonly registry: StepRegistry;
  readonly history: History;
  runList(steps: StepDefinition[], scope: Scope, prefix: string): Promise<unknown>;
  /** An expression failure here fails the step for good (not retried). */
  evaluate(value: unknown, scope: Scope, path: string): Promise<unknown>;
  evaluateInput(step: StepDefinition, scope: Scope): Promise<unknown>;
  bindings(scope: Scope): Record<string, unknown>;
  /** A nested list's scope: it sees the enclosing steps, its own stay inside. */
  childScope(scope: Scope): Scope;
  context(step: StepDefinition, attempt: number, signal: AbortSignal): StepContext;
  succeed(step: StepDefinition, path: string, input: unknown, output: unknown, attempt?: number, started?: Date): Promise<unknown>;
  record(step: StepDefinition, path: string, r: RecordedStep): Promise<void>;
  failure(step: StepDefinition, code: string, message: string): StepFailure;
  checkAbort(): void;
}
