import type { ExecutionError } from '../execution.records.js';
import { ExpressionError, evaluate } from '../expressions.js';
import { StepError, type StepDefinition } from '../steps/step-executor.js';
import { AbortRun, StepFailure, WaitSignal } from './signals.js';
import type { Scope, StepRunner } from './step-runner.js';

/** Retry delays up to this long are slept in the worker; longer ones park the execution durably. */
const INLINE_RETRY_MAX_MS = 2000;

/**
 * An action step: its executor runs attempt after attempt under the step's timeout, each failed
 * attempt recorded, until one succeeds or the retry policy gives up. Attempt numbers continue
 * from the history, so a replay after a crash or a parked backoff does not start over.
 */
export async function runAttempts(run: StepRunner, step: StepDefinition, scope: Scope, path: string): Promise<unknown> {
  const { host } = run;
  const executor = run.registry.get(step.type);
  if (!executor) throw run.failure(step, 'unknown_step_type', `unknown step type '${step.type}'`);
  const maxAttempts = step.retry?.max_attempts ?? 1;
  let attempt = run.history.failedAttempts(path) + 1;
  for (;;) {
    const started = new Date();
    let input: Record<string, unknown> = {};
    try {
      // Not evaluateInput: an expression error here is this step's failure, recorded like any other.
      input = (await evaluate(step.input ?? {}, run.bindings(scope), `${step.id}.input`)) as Record<string, unknown>;
      // What ran before is durable (and visible) before anything leaves the run.
      if (!executor.pure) await host.flush();
      const output = await withTimeout(step, host.signal, (signal) => executor.execute(input, step, run.context(step, attempt, signal)));
      host.log(step.id, 'info', `${step.type} ${step.id} succeeded`, { attempt, ms: Date.now() - started.getTime(), worker: host.workerId });
      return await run.succeed(step, path, input, output, attempt, started);
    } catch (error) {
      if (error instanceof AbortRun || error instanceof StepFailure) throw error;
      run.checkAbort();
      const failure = toFailure(step, error);
      const retryOn = step.retry?.retry_on;
      const willRetry = failure.retryable && attempt < maxAttempts && (!retryOn || retryOn.includes(failure.code));
      const { retryable: _, ...stored } = failure;
      await run.record(step, path, { status: 'failed', attempt, input, error: { ...stored, retryable: failure.retryable, final: !willRetry }, started });
      host.log(step.id, willRetry ? 'warn' : 'error', `${step.type} ${step.id} failed: ${failure.message}`, {
        attempt,
        code: failure.code,
        retrying: willRetry,
      });
      if (!willRetry) throw new StepFailure(failure);
      const delay = backoffMs(step, attempt);
      if (delay > INLINE_RETRY_MAX_MS) throw new WaitSignal(new Date(Date.now() + delay));
      await sleep(delay, host.signal);
      run.checkAbort();
      attempt++;
    }
  }
}

/** Exponential backoff with jitter: backoff_seconds × 2^(attempt-1), capped, then 50–100 % of that. */
export function backoffMs(step: StepDefinition, attempt: number): number {
  const base = (step.retry?.backoff_seconds ?? 1) * 1000;
  const cap = (step.retry?.max_backoff_seconds ?? 60) * 1000;
  const ceiling = Math.min(cap, base * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
}

/** `execution` aborts the whole run (its reason is rethrown); the step's own timeout fails only this attempt. */
async function withTimeout<T>(step: StepDefinition, execution: AbortSignal, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const timeoutMs = step.timeout_seconds ? step.timeout_seconds * 1000 : undefined;
  const signals = [execution, ...(timeoutMs ? [AbortSignal.timeout(timeoutMs)] : [])];
  const signal = signals.length > 1 ? AbortSignal.any(signals) : signals[0];
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    // The execution's signal is aborted with an AbortRun (an Error): cancel, timeout, lost lease.
    onAbort = () =>
      reject(
        execution.aborted ? (execution.reason as Error) : new StepError('step_timeout', `step ${step.id} took longer than ${step.timeout_seconds} s`, true),
      );
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    // An executor that ignores the signal is left behind rather than waited for.
    return await Promise.race([work(signal), aborted]);
  } finally {
    if (onAbort) signal.removeEventListener('abort', onAbort);
  }
}

function toFailure(step: StepDefinition, error: unknown): ExecutionError & { retryable: boolean } {
  if (error instanceof StepError) return { code: error.code, message: error.message, step_id: step.id, retryable: error.retryable };
  if (error instanceof ExpressionError) return { code: 'expression_error', message: error.message, step_id: step.id, retryable: false };
  return { code: 'step_error', message: (error as Error)?.message ?? String(error), step_id: step.id, retryable: true };
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}
