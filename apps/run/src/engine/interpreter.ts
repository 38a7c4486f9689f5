import { newId } from '@platform/common';
import type { ExecutionError, StepRecord } from '../executions/execution.records.js';
import type { NewStepRecord } from '../executions/executions.repository.js';
import { ExpressionError, evaluate } from './expressions.js';
import type { Redactor } from './redaction.js';
import { AbortRun, FailSignal, StepFailure, StopSignal, WaitSignal, combineWaits } from './signals.js';
import type { StepRegistry } from './step-registry.js';
import { StepError, type LogLevel, type StepContext, type StepDefinition, type StepSettings } from './steps/step-executor.js';

/** Retry delays up to this long are slept in the worker; longer ones park the execution durably. */
const INLINE_RETRY_MAX_MS = 2000;

export interface InterpreterHost {
  executionId: string;
  /** Which process ran a step: in its log line, to trace work across replicas. */
  workerId: string;
  workflowId: string;
  tenant: StepContext['tenant'];
  settings: StepSettings;
  /** Aborted on cancel, execution timeout or a lost lease; the reason is an AbortRun. */
  signal: AbortSignal;
  redactor: Redactor;
  /**
   * Commits a step record; throws AbortRun when the worker no longer owns the execution.
   * `last`: the final top-level step succeeded, its record may be committed with the settlement.
   */
  record(record: NewStepRecord, last?: boolean): Promise<void>;
  log(stepId: string | null, level: LogLevel, message: string, data?: Record<string, unknown>): void;
  /** Starts (idempotently, by path) a child execution for a subworkflow step; returns its id. */
  startChild(workflowId: string, input: Record<string, unknown>, path: string): Promise<string>;
}

interface Scope {
  steps: Record<string, { output: unknown; error?: ExecutionError }>;
  vars: Record<string, unknown>;
  item?: unknown;
  index?: number;
}

/** What was recorded for each step path on earlier runs of this execution. */
class History {
  private readonly byPath = new Map<string, StepRecord[]>();

  constructor(records: StepRecord[]) {
    for (const r of records) {
      const list = this.byPath.get(r.path) ?? [];
      list.push(r);
      this.byPath.set(r.path, list);
    }
  }

  done(path: string): StepRecord | undefined {
    return this.byPath.get(path)?.find((r) => r.status === 'succeeded' || r.status === 'skipped');
  }

  finalFailure(path: string): StepRecord | undefined {
    return this.byPath.get(path)?.find((r) => r.status === 'failed' && r.error?.final);
  }

  failedAttempts(path: string): number {
    return this.byPath.get(path)?.filter((r) => r.status === 'failed').length ?? 0;
  }

  waiting(path: string): StepRecord | undefined {
    return this.byPath.get(path)?.find((r) => r.status === 'waiting');
  }

  /**
   * The branch of a condition or switch at `path` that an earlier run already went into (a step
   * inside it was recorded), so a replay takes it again even if its expression would now decide
   * otherwise ($now(), a changed secret). With nothing recorded inside, deciding again is safe.
   */
  branchTaken(path: string): string | undefined {
    const prefix = `${path}/`;
    for (const recorded of this.byPath.keys()) {
      if (recorded.startsWith(prefix)) return recorded.slice(prefix.length).split('/')[0];
    }
    return undefined;
  }
}

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
 */
export class Interpreter {
  private readonly history: History;
  /** The final top-level step: when it succeeds, nothing else runs before the execution settles. */
  private lastPath?: string;

  constructor(
    private readonly registry: StepRegistry,
    private readonly host: InterpreterHost,
    records: StepRecord[],
    private readonly bindings: { input: unknown; execution: Record<string, unknown>; secrets: Record<string, string> },
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

  private async runList(steps: StepDefinition[], scope: Scope, prefix: string): Promise<unknown> {
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
    if (done) return done.output;
    const failed = this.history.finalFailure(path);
    if (failed?.error) throw new StepFailure({ ...failed.error, retryable: false });
    this.checkAbort();
    switch (step.type) {
      case 'condition': {
        const taken = this.history.branchTaken(path);
        const test = taken ? taken === 'then' : await this.eval(step.if, scope, `${step.id}.if`);
        const branch = test ? 'then' : 'else';
        const list = (test ? step.then : step.else) as StepDefinition[] | undefined;
        const output = list?.length ? await this.runList(list, this.child(scope), `${path}/${branch}/`) : null;
        return this.succeed(step, path, { branch }, output);
      }
      case 'switch': {
        const cases = (step.cases as { when: unknown; steps?: StepDefinition[] }[]) ?? [];
        const taken = this.history.branchTaken(path);
        let chosen = taken === undefined ? -1 : taken === 'default' ? -2 : Number(taken);
        const value = chosen === -1 ? await this.eval(step.value, scope, `${step.id}.value`) : undefined;
        for (let c = 0; c < cases.length && chosen === -1; c++) {
          if (JSON.stringify(await this.eval(cases[c].when, scope, `${step.id}.cases[${c}].when`)) === JSON.stringify(value)) chosen = c;
        }
        const list = chosen >= 0 ? cases[chosen].steps : (step.default as StepDefinition[] | undefined);
        const output = list?.length ? await this.runList(list, this.child(scope), `${path}/${chosen >= 0 ? chosen : 'default'}/`) : null;
        return this.succeed(step, path, { case: chosen >= 0 ? chosen : 'default' }, output);
      }
      case 'loop': {
        const items = await this.eval(step.items, scope, `${step.id}.items`);
        if (!Array.isArray(items)) throw this.failure(step, 'invalid_items', `items must evaluate to a list (got ${typeof items})`);
        const body = step.steps as StepDefinition[];
        const outputs = await this.concurrently(items.length, (step.concurrency as number) ?? 1, (n) =>
          this.runList(body, { ...this.child(scope), item: items[n], index: n }, `${path}/${n}/`),
        );
        return this.succeed(step, path, { count: items.length }, outputs);
      }
      case 'parallel': {
        const branches = step.branches as StepDefinition[][];
        const outputs = await this.concurrently(branches.length, branches.length, (n) => this.runList(branches[n], this.child(scope), `${path}/${n}/`));
        return this.succeed(step, path, { branches: branches.length }, outputs);
      }
      case 'set': {
        const values = (await this.evalInput(step, scope)) as Record<string, unknown>;
        Object.assign(scope.vars, values);
        return this.succeed(step, path, values, values);
      }
      case 'stop': {
        const input = (await this.evalInput(step, scope)) as { output?: unknown };
        await this.succeed(step, path, input, input.output ?? null);
        throw new StopSignal(input.output ?? null);
      }
      case 'fail': {
        const input = (await this.evalInput(step, scope)) as { message?: unknown; code?: unknown };
        const error = { code: typeof input.code === 'string' ? input.code : 'workflow_failed', message: String(input.message), step_id: step.id };
        await this.record(step, path, { status: 'failed', attempt: 1, input, error: { ...error, final: true } });
        throw new FailSignal(error);
      }
      case 'delay':
        return this.delay(step, scope, path);
      case 'approval':
      case 'subworkflow':
        return this.waitForOutside(step, scope, path);
      default:
        return this.runAction(step, scope, path);
    }
  }

  private async runAction(step: StepDefinition, scope: Scope, path: string): Promise<unknown> {
    const executor = this.registry.get(step.type);
    if (!executor) throw this.failure(step, 'unknown_step_type', `unknown step type '${step.type}'`);
    const maxAttempts = step.retry?.max_attempts ?? 1;
    let attempt = this.history.failedAttempts(path) + 1;
    for (;;) {
      const started = new Date();
      let input: Record<string, unknown> = {};
      try {
        // Not evalInput: an expression error here is this step's failure, recorded like any other.
        input = (await evaluate(step.input ?? {}, this.scopeBindings(scope), `${step.id}.input`)) as Record<string, unknown>;
        const output = await this.withTimeout(step, (signal) => executor.execute(input, step, this.context(step, attempt, signal)));
        this.host.log(step.id, 'info', `${step.type} ${step.id} succeeded`, { attempt, ms: Date.now() - started.getTime(), worker: this.host.workerId });
        return await this.succeed(step, path, input, output, attempt, started);
      } catch (error) {
        if (error instanceof AbortRun || error instanceof StepFailure) throw error;
        this.checkAbort();
        const failure = this.toFailure(step, error);
        const retryOn = step.retry?.retry_on;
        const willRetry = failure.retryable && attempt < maxAttempts && (!retryOn || retryOn.includes(failure.code));
        const { retryable: _, ...stored } = failure;
        await this.record(step, path, { status: 'failed', attempt, input, error: { ...stored, retryable: failure.retryable, final: !willRetry }, started });
        this.host.log(step.id, willRetry ? 'warn' : 'error', `${step.type} ${step.id} failed: ${failure.message}`, { attempt, code: failure.code, retrying: willRetry });
        if (!willRetry) throw new StepFailure(failure);
        const delay = backoffMs(step, attempt);
        if (delay > INLINE_RETRY_MAX_MS) throw new WaitSignal(new Date(Date.now() + delay));
        await sleep(delay, this.host.signal);
        this.checkAbort();
        attempt++;
      }
    }
  }

  private async delay(step: StepDefinition, scope: Scope, path: string): Promise<unknown> {
    const waiting = this.history.waiting(path);
    let wakeAt: Date;
    if (waiting?.wake_at) {
      wakeAt = new Date(waiting.wake_at);
    } else {
      const input = (await this.evalInput(step, scope)) as { seconds?: unknown; until?: unknown };
      wakeAt = typeof input.until === 'string' ? new Date(input.until) : new Date(Date.now() + Number(input.seconds) * 1000);
      if (Number.isNaN(wakeAt.getTime())) throw this.failure(step, 'invalid_delay', 'delay needs seconds (a number) or until (an ISO 8601 time)');
      if (wakeAt.getTime() > Date.now()) {
        await this.record(step, path, { status: 'waiting', attempt: 1, input, wake_at: wakeAt });
        this.host.log(step.id, 'info', `delay ${step.id} until ${wakeAt.toISOString()}`);
        throw new WaitSignal(wakeAt);
      }
    }
    if (wakeAt.getTime() > Date.now()) throw new WaitSignal(wakeAt);
    return this.succeed(step, path, { until: wakeAt.toISOString() }, { waited_until: wakeAt.toISOString() });
  }

  /** Approval (a human task) and subworkflow (a child execution): the step waits until an event resolves it. */
  private async waitForOutside(step: StepDefinition, scope: Scope, path: string): Promise<never> {
    if (!this.history.waiting(path)) {
      const input = (await this.evalInput(step, scope)) as Record<string, unknown>;
      let recorded: Record<string, unknown> = input;
      if (step.type === 'subworkflow') {
        const childId = await this.host.startChild(String(input.workflow_id), (input.input as Record<string, unknown>) ?? {}, path).catch((error: unknown) => {
          throw this.failure(step, 'subworkflow_failed_to_start', (error as Error).message);
        });
        recorded = { ...input, child_execution_id: childId };
      }
      await this.record(step, path, { status: 'waiting', attempt: 1, input: recorded });
      this.host.log(step.id, 'info', `${step.type} ${step.id} waiting`);
    }
    throw new WaitSignal(null);
  }

  private async concurrently(count: number, limit: number, run: (n: number) => Promise<unknown>): Promise<unknown[]> {
    const results = new Array<unknown>(count);
    const signals: unknown[] = [];
    let next = 0;
    const lane = async () => {
      for (let n = next++; n < count; n = next++) {
        try {
          results[n] = await run(n);
        } catch (signal) {
          signals.push(signal);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(limit, count) }, lane));
    // A failure or stop wins over waiting; waiting branches wake at the earliest time.
    for (const kind of [AbortRun, FailSignal, StepFailure, StopSignal]) {
      const hit = signals.find((s) => s instanceof kind);
      if (hit) throw hit;
    }
    const waits = signals.filter((s): s is WaitSignal => s instanceof WaitSignal);
    if (waits.length) throw combineWaits(waits);
    if (signals.length) throw signals[0];
    return results;
  }

  private child(scope: Scope): Scope {
    return { steps: { ...scope.steps }, vars: scope.vars, item: scope.item, index: scope.index };
  }

  private eval(value: unknown, scope: Scope, path: string): Promise<unknown> {
    return evaluate(value, this.scopeBindings(scope), path).catch((error: unknown) => {
      if (error instanceof ExpressionError) throw new StepFailure({ code: 'expression_error', message: error.message, step_id: path.split('.')[0], retryable: false });
      throw error;
    });
  }

  private evalInput(step: StepDefinition, scope: Scope): Promise<unknown> {
    return this.eval(step.input ?? {}, scope, `${step.id}.input`);
  }

  private scopeBindings(scope: Scope): Record<string, unknown> {
    return { ...this.bindings, steps: scope.steps, vars: scope.vars, item: scope.item, index: scope.index };
  }

  private context(step: StepDefinition, attempt: number, signal: AbortSignal): StepContext {
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

  private async withTimeout<T>(step: StepDefinition, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const timeoutMs = step.timeout_seconds ? step.timeout_seconds * 1000 : undefined;
    const signals = [this.host.signal, ...(timeoutMs ? [AbortSignal.timeout(timeoutMs)] : [])];
    const signal = signals.length > 1 ? AbortSignal.any(signals) : signals[0];
    let onAbort: (() => void) | undefined;
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => reject(this.host.signal.aborted ? this.host.signal.reason : new StepError('step_timeout', `step ${step.id} took longer than ${step.timeout_seconds} s`, true));
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

  private toFailure(step: StepDefinition, error: unknown): ExecutionError & { retryable: boolean } {
    if (error instanceof StepError) return { code: error.code, message: error.message, step_id: step.id, retryable: error.retryable };
    if (error instanceof ExpressionError) return { code: 'expression_error', message: error.message, step_id: step.id, retryable: false };
    return { code: 'step_error', message: (error as Error)?.message ?? String(error), step_id: step.id, retryable: true };
  }

  private failure(step: StepDefinition, code: string, message: string): StepFailure {
    return new StepFailure({ code, message, step_id: step.id, retryable: false });
  }

  private async succeed(step: StepDefinition, path: string, input: unknown, output: unknown, attempt = 1, started = new Date()): Promise<unknown> {
    await this.record(step, path, { status: 'succeeded', attempt, input, output, started });
    return output;
  }

  private async record(
    step: StepDefinition,
    path: string,
    r: { status: NewStepRecord['status']; attempt: number; input?: unknown; output?: unknown; error?: NewStepRecord['error']; wake_at?: Date; started?: Date },
  ): Promise<void> {
    const redact = this.host.redactor;
    const last = r.status === 'succeeded' && path === this.lastPath;
    await this.host.record({
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
    }, last);
  }

  private checkAbort(): void {
    if (this.host.signal.aborted) throw this.host.signal.reason instanceof AbortRun ? this.host.signal.reason : new AbortRun('cancelled');
  }
}

/** Exponential backoff with jitter: backoff_seconds × 2^(attempt-1), capped, then 50–100 % of that. */
export function backoffMs(step: StepDefinition, attempt: number): number {
  const base = (step.retry?.backoff_seconds ?? 1) * 1000;
  const cap = (step.retry?.max_backoff_seconds ?? 60) * 1000;
  const ceiling = Math.min(cap, base * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    }, { once: true });
  });
}
