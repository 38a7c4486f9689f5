import { newId } from '@platform/common';
import type { ExecutionError, StepRecord } from '../execution.records.js';
import { ExpressionError, evaluate } from '../expressions.js';
import type { StepRegistry } from '../step-registry.js';
import type { StepContext, StepDefinition } from '../steps/step-executor.js';
import { runAttempts } from './attempts.js';
import { CONTROL_STEPS, replaySet, replaySetsWithin, type ControlStep } from './control-steps.js';
import { History } from './history.js';
import { AbortRun, FailSignal, StepFailure, StopSignal, WaitSignal } from './signals.js';
import type { InterpreterHost, RecordedStep, Scope, StepRunner } from './step-runner.js';

export type { InterpreterHost } from './step-runner.js';

export type Outcome =
  | { status: 'succeeded'; output: unknown }
  | { status: 'failed'; error: ExecutionError }
  | { status: 'waiting'; wakeAt: Date | null }
  | { status: 'cancelled' | 'timed_out' | 'lease_lost' };

/**
 * Runs a workflow definition as a replay: every step has a path (`id`, or `loop/3/id` inside a
 * loop); a step whose success is recorded is not run again, its recorded output is used. So after
 * a crash, a delay or an approval, running the definition again continues where it stopped, and
 * each step's success is recorded once (the database enforces it).
 *
 * A replayed `set` step stores its recorded values in `vars` again (replaySet, and replaySetsWithin
 * for those inside a finished loop or branch), so variables survive every wait and takeover.
 *
 * Control steps live in control-steps.ts, an action step's attempts (retry, timeout, backoff) in
 * attempts.ts; both reach the interpreter through StepRunner.
 */
export class Interpreter implements StepRunner {
  readonly history: History;
  /** The final top-level step: when it succeeds, nothing else runs before the execution settles. */
  private lastPath?: string;

  constructor(
    readonly registry: StepRegistry,
    readonly host: InterpreterHost,
    records: StepRecord[],
    private readonly globals: { input: unknown; execution: Record<string, unknown>; secrets: Record<string, string> },
  ) {
    this.history = new History(records);
  }

  async run(steps: StepDefinition[]): Promise<Outcome> {
    this.lastPath = steps[steps.length - 1]?.id;
    try {
      const output = await this.runList(steps, { steps: {}, vars: {} }, '');
      return { status: 'succeeded', output };
    } catch (signal) {
      if (signal instanceof StopSignal) return { status: 'succeeded', output: signal.output };
      if (signal instanceof FailSignal) return { status: 'failed', error: signal.error };
      if (signal instanceof WaitSignal) return { status: 'waiting', wakeAt: signal.wakeAt };
      if (signal instanceof AbortRun) return { status: signal.reason };
      throw signal;
    }
  }

  async runList(steps: StepDefinition[], scope: Scope, prefix: string): Promise<unknown> {
    let last: unknown = null;
    let i = 0;
    while (i < steps.length) {
      const step = steps[i];
      try {
        last = await this.runStep(step, scope, `${prefix}${step.id}`);
        scope.steps[step.id] = { output: last };
        i++;
      } catch (signal) {
        if (!(signal instanceof StepFailure)) throw signal;
        const onError = step.on_error ?? 'fail';
        const { retryable: _, ...error } = signal.error;
        if (onError === 'fail') throw new FailSignal(error);
        scope.steps[step.id] = { output: null, error };
        last = null;
        i = onError === 'continue' ? i + 1 : steps.findIndex((s) => s.id === onError.goto);
      }
    }
    return last;
  }

  private async runStep(step: StepDefinition, scope: Scope, path: string): Promise<unknown> {
    const done = this.history.done(path);
    if (done) {
      if (step.type === 'set' && done.status === 'succeeded') return replaySet(this, step, scope, done.output);
      replaySetsWithin(this, scope, path);
      return done.output;
    }
    const failed = this.history.finalFailure(path);
    if (failed?.error) throw new StepFailure({ ...failed.error, retryable: false });
    this.checkAbort();
    const control = CONTROL_STEPS.get(step.type);
    return control ? this.runControl(control, step, scope, path) : runAttempts(this, step, scope, path);
  }

  /**
   * A control step that fails itself (an expression in it, items that are not a list, a task or
   * child that could not be made) is recorded as failed with its error, as an action step is
   * (attempts.ts): the execution's `steps` shows it, and a replay fails it again from the record.
   * A failure escaping here is always the step's own: runList turns its nested steps' into signals.
   */
  private async runControl(control: ControlStep, step: StepDefinition, scope: Scope, path: string): Promise<unknown> {
    try {
      return await control(this, step, scope, path);
    } catch (signal) {
      if (signal instanceof StepFailure) {
        const { retryable: _, ...error } = signal.error;
        await this.record(step, path, { status: 'failed', attempt: 1, input: signal.input ?? null, error: { ...error, final: true } });
      }
      throw signal;
    }
  }

  childScope(scope: Scope): Scope {
    return { steps: { ...scope.steps }, vars: scope.vars, item: scope.item, index: scope.index };
  }

  evaluate(value: unknown, scope: Scope, path: string): Promise<unknown> {
    return evaluate(value, this.bindings(scope), path).catch((error: unknown) => {
      if (error instanceof ExpressionError)
        throw new StepFailure({ code: 'expression_error', message: error.message, step_id: path.split('.')[0], retryable: false });
      throw error;
    });
  }

  evaluateInput(step: StepDefinition, scope: Scope): Promise<unknown> {
    return this.evaluate(step.input ?? {}, scope, `${step.id}.input`);
  }

  bindings(scope: Scope): Record<string, unknown> {
    return { ...this.globals, steps: scope.steps, vars: scope.vars, item: scope.item, index: scope.index };
  }

  context(step: StepDefinition, attempt: number, signal: AbortSignal): StepContext {
    return {
      executionId: this.host.executionId,
      workflowId: this.host.workflowId,
      stepId: step.id,
      attempt,
      tenant: this.host.tenant,
      signal,
      settings: this.host.settings,
      log: (level, message, data) => this.host.log(step.id, level, message, data),
    };
  }

  failure(step: StepDefinition, code: string, message: string): StepFailure {
    return new StepFailure({ code, message, step_id: step.id, retryable: false });
  }

  async succeed(step: StepDefinition, path: string, input: unknown, output: unknown, attempt = 1, started = new Date()): Promise<unknown> {
    await this.record(step, path, { status: 'succeeded', attempt, input, output, started });
    return output;
  }

  async record(step: StepDefinition, path: string, r: RecordedStep): Promise<void> {
    const redact = this.host.redactor;
    const last = r.status === 'succeeded' && path === this.lastPath;
    await this.host.record(
      {
        id: newId(),
        path,
        step_id: step.id,
        type: step.type,
        status: r.status,
        attempt: r.attempt,
        input: redact.redact(r.input ?? null),
        output: redact.redact(r.output ?? null),
        error: r.error ? redact.redact(r.error) : null,
        wake_at: r.wake_at ?? null,
        started_at: r.started ?? new Date(),
        finished_at: r.status === 'waiting' ? null : new Date(),
      },
      last,
    );
  }

  checkAbort(): void {
    if (this.host.signal.aborted) throw this.host.signal.reason instanceof AbortRun ? this.host.signal.reason : new AbortRun('cancelled');
  }
}
