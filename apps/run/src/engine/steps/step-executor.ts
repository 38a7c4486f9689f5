import type { TenantContext } from '@platform/db';

/** A step as stored in a workflow definition (API-CONTRACT "A step"). */
export interface StepDefinition {
  id: string;
  type: string;
  input?: Record<string, unknown>;
  retry?: { max_attempts?: number; backoff_seconds?: number; max_backoff_seconds?: number; retry_on?: string[] };
  timeout_seconds?: number;
  on_error?: 'fail' | 'continue' | { goto: string };
  [key: string]: unknown;
}

export interface StepProblem {
  /** JSON path within the step, e.g. `input.url`. */
  path: string;
  message: string;
}

/** Settings an action step may need, from the run service's configuration. */
export interface StepSettings {
  /** Allow http.request to reach private, loopback and link-local addresses (tests, on-premise). */
  allowPrivateNetworks: boolean;
  httpResponseLimitBytes: number;
  httpDefaultTimeoutMs: number;
  codeTimeoutMs: number;
  codeMemoryLimitBytes: number;
}

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface StepContext {
  executionId: string;
  workflowId: string;
  stepId: string;
  /** 1 on the first attempt. */
  attempt: number;
  tenant: TenantContext & { requestId: string };
  /** Aborted when the execution is cancelled or the step's timeout passes: stop work and reject. */
  signal: AbortSignal;
  settings: StepSettings;
  log(level: LogLevel, message: string, data?: Record<string, unknown>): void;
}

/**
 * A failure the engine understands: `code` is what `retry.retry_on` and `on_error` match on;
 * `retryable: false` skips retries whatever the policy says (a 4xx, a sandbox violation).
 */
export class StepError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly retryable = true,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'StepError';
  }
}

/**
 * An action step type. The engine evaluates the step's expressions first and hands over the
 * resulting `input`; the executor does the work and returns the step's output (any JSON value).
 * Registering one in the StepRegistry is all a new step type needs.
 */
export interface StepExecutor {
  readonly type: string;
  /**
   * True for a step with no effect outside the run (a pure function of its input, like
   * `transform`): running it again after a crash is the same as running it once, so its record
   * may wait for the run's next commit instead of taking a round trip of its own.
   */
  readonly pure?: boolean;
  /** Checks of the definition at save time (before expressions are evaluated): every problem, with its path. */
  validate?(step: StepDefinition): StepProblem[];
  execute(input: Record<string, unknown>, step: StepDefinition, context: StepContext): Promise<unknown>;
}
