import { isDeepStrictEqual } from 'node:util';
import type { StepDefinition } from '../steps/step-executor.js';
import { readHumanTask } from './human-task.js';
import { AbortRun, FailSignal, StepFailure, StopSignal, WaitSignal, combineWaits } from './signals.js';
import type { Scope, StepRunner } from './step-runner.js';

export type ControlStep = (run: StepRunner, step: StepDefinition, scope: Scope, path: string) => Promise<unknown>;

async function condition(run: StepRunner, step: StepDefinition, scope: Scope, path: string): Promise<unknown> {
  const taken = run.history.branchTaken(path);
  const test = taken ? taken === 'then' : await run.evaluate(step.if, scope, `${step.id}.if`);
  const branch = test ? 'then' : 'else';
  const list = (test ? step.then : step.else) as StepDefinition[] | undefined;
  const output = list?.length ? await run.runList(list, run.childScope(scope), `${path}/${branch}/`) : null;
  return run.succeed(step, path, { branch }, output);
}

async function choose(run: StepRunner, step: StepDefinition, scope: Scope, path: string): Promise<unknown> {
  const cases = (step.cases as { when: unknown; steps?: StepDefinition[] }[]) ?? [];
  const taken = run.history.branchTaken(path);
  let chosen = taken === undefined ? -1 : taken === 'default' ? -2 : Number(taken);
  const value = chosen === -1 ? await run.evaluate(step.value, scope, `${step.id}.value`) : undefined;
  for (let c = 0; c < cases.length && chosen === -1; c++) {
    if (JSON.stringify(await run.evaluate(cases[c].when, scope, `${step.id}.cases[${c}].when`)) === JSON.stringify(value)) chosen = c;
  }
  const list = chosen >= 0 ? cases[chosen].steps : (step.default as StepDefinition[] | undefined);
  const output = list?.length ? await run.runList(list, run.childScope(scope), `${path}/${chosen >= 0 ? chosen : 'default'}/`) : null;
  return run.succeed(step, path, { case: chosen >= 0 ? chosen : 'default' }, output);
}

async function loop(run: StepRunner, step: StepDefinition, scope: Scope, path: string): Promise<unknown> {
  const items = await run.evaluate(step.items, scope, `${step.id}.items`);
  if (!Array.isArray(items)) throw run.failure(step, 'invalid_items', `items must evaluate to a list (got ${typeof items})`);
  const body = step.steps as StepDefinition[];
  const outputs = await concurrently(items.length, (step.concurrency as number) ?? 1, (n) =>
    run.runList(body, { ...run.childScope(scope), item: items[n], index: n }, `${path}/${n}/`),
  );
  return run.succeed(step, path, { count: items.length }, outputs);
}

async function parallel(run: StepRunner, step: StepDefinition, scope: Scope, path: string): Promise<unknown> {
  const branches = step.branches as StepDefinition[][];
  const outputs = await concurrently(branches.length, branches.length, (n) => run.runList(branches[n], run.childScope(scope), `${path}/${n}/`));
  return run.succeed(step, path, { branches: branches.length }, outputs);
}

async function set(run: StepRunner, step: StepDefinition, scope: Scope, path: string): Promise<unknown> {
  const values = (await run.evaluateInput(step, scope)) as Record<string, unknown>;
  Object.assign(scope.vars, values);
  return run.succeed(step, path, values, values);
}

/**
 * A replayed `set` step stores its recorded values again, so a run that waited or moved to another
 * worker sees the variables it had (in the scope the step is in, like a first run). The record is
 * redacted: where evaluating the input again gives what was recorded once redacted, those values
 * (with the secrets in them) are used; otherwise (a `$now()`, a changed input) the recorded ones.
 */
export async function replaySet(run: StepRunner, step: StepDefinition, scope: Scope, recorded: unknown): Promise<unknown> {
  const again = await run.evaluateInput(step, scope).catch(() => undefined);
  const values = again !== undefined && isDeepStrictEqual(run.host.redactor.redact(again), recorded) ? again : recorded;
  if (values && typeof values === 'object') Object.assign(scope.vars, values);
  return values;
}

/**
 * A finished loop, branch or parallel is not gone into again on replay: the `set` steps that ran
 * inside it store their recorded values (all lists share one `vars`), in the order they ran.
 */
export function replaySetsWithin(run: StepRunner, scope: Scope, path: string): void {
  for (const r of run.history.setsWithin(path)) if (r.output && typeof r.output === 'object') Object.assign(scope.vars, r.output);
}

async function stop(run: StepRunner, step: StepDefinition, scope: Scope, path: string): Promise<never> {
  const input = (await run.evaluateInput(step, scope)) as { output?: unknown };
  await run.succeed(step, path, input, input.output ?? null);
  throw new StopSignal(input.output ?? null);
}

async function fail(run: StepRunner, step: StepDefinition, scope: Scope, path: string): Promise<never> {
  const input = (await run.evaluateInput(step, scope)) as { message?: unknown; code?: unknown };
  const error = { code: typeof input.code === 'string' ? input.code : 'workflow_failed', message: String(input.message), step_id: step.id };
  await run.record(step, path, { status: 'failed', attempt: 1, input, error: { ...error, final: true } });
  throw new FailSignal(error);
}

async function delay(run: StepRunner, step: StepDefinition, scope: Scope, path: string): Promise<unknown> {
  const waiting = run.history.waiting(path);
  let wakeAt: Date;
  if (waiting?.wake_at) {
    wakeAt = new Date(waiting.wake_at);
  } else {
    const input = (await run.evaluateInput(step, scope)) as { seconds?: unknown; until?: unknown };
    wakeAt = typeof input.until === 'string' ? new Date(input.until) : new Date(Date.now() + Number(input.seconds) * 1000);
    if (Number.isNaN(wakeAt.getTime())) throw run.failure(step, 'invalid_delay', 'delay needs seconds (a number) or until (an ISO 8601 time)');
    if (wakeAt.getTime() > Date.now()) {
      await run.record(step, path, { status: 'waiting', attempt: 1, input, wake_at: wakeAt });
      run.host.log(step.id, 'info', `delay ${step.id} until ${wakeAt.toISOString()}`);
      throw new WaitSignal(wakeAt);
    }
  }
  if (wakeAt.getTime() > Date.now()) throw new WaitSignal(wakeAt);
  // A delay that waited began when it started to wait: its record spans the wait.
  const started = waiting ? new Date(waiting.started_at) : undefined;
  return run.succeed(step, path, { until: wakeAt.toISOString() }, { waited_until: wakeAt.toISOString() }, 1, started);
}

/**
 * Fails a step that never got going (its task or child could not be made); the interpreter records
 * it as failed with this input (Interpreter.runControl), so `steps` shows it with the reason.
 */
function failBeforeWaiting(run: StepRunner, step: StepDefinition, input: unknown, code: string, message: string): never {
  const failure = run.failure(step, code, message);
  failure.input = input;
  throw failure;
}

/** Subworkflow (a child execution): the step waits until the child's end resolves it. */
async function waitForChild(run: StepRunner, step: StepDefinition, scope: Scope, path: string): Promise<never> {
  if (!run.history.waiting(path)) {
    const input = (await run.evaluateInput(step, scope)) as Record<string, unknown>;
    const childId = await run.host
      .startChild(String(input.workflow_id), (input.input as Record<string, unknown>) ?? {}, path)
      .catch((error: unknown) => failBeforeWaiting(run, step, input, 'subworkflow_failed_to_start', (error as Error).message));
    await run.record(step, path, { status: 'waiting', attempt: 1, input: { ...input, child_execution_id: childId } });
    run.host.log(step.id, 'info', `${step.type} ${step.id} waiting`);
  }
  throw new WaitSignal(null);
}

/**
 * Approval and form (a human task): the task is asked of the task service (a durable queue,
 * idempotent by execution and path, so a replay before the wait was recorded asks again
 * harmlessly), then the step waits, holding no worker, until the task's outcome resolves it.
 */
async function waitForPerson(run: StepRunner, step: StepDefinition, scope: Scope, path: string): Promise<never> {
  if (!run.history.waiting(path)) {
    const input = await run.evaluateInput(step, scope);
    let task;
    try {
      task = readHumanTask(step.type, input);
    } catch (error) {
      return failBeforeWaiting(run, step, input, 'invalid_task', (error as Error).message);
    }
    // As POST /tasks/{id}/assign does: a person the tenant does not have would leave the task to nobody.
    const unknown = await run.host.unknownAssignee(task);
    if (unknown) return failBeforeWaiting(run, step, input, 'invalid_task', unknown);
    // The task is shown to people: secret values never leave the run service in it.
    await run.host.requestTask({ ...run.host.redactor.redact(task), stepId: step.id, stepPath: path, type: step.type as 'approval' | 'form' });
    await run.record(step, path, { status: 'waiting', attempt: 1, input });
    run.host.log(step.id, 'info', `${step.type} ${step.id} waiting for a person`);
  }
  throw new WaitSignal(null);
}

/** Runs `count` lists, `limit` at a time; every lane finishes before the strongest signal is rethrown. */
async function concurrently(count: number, limit: number, run: (n: number) => Promise<unknown>): Promise<unknown[]> {
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
    const hit = signals.find((s): s is Error => s instanceof kind);
    if (hit) throw hit;
  }
  const waits = signals.filter((s): s is WaitSignal => s instanceof WaitSignal);
  if (waits.length) throw combineWaits(waits);
  if (signals.length) throw signals[0];
  return results;
}

/**
 * Step types the interpreter runs itself, by type; every other type is an action step from the
 * StepRegistry (attempts.ts). A Map, so a type named like an Object property is not found here.
 */
export const CONTROL_STEPS: ReadonlyMap<string, ControlStep> = new Map<string, ControlStep>([
  ['condition', condition],
  ['switch', choose],
  ['loop', loop],
  ['parallel', parallel],
  ['set', set],
  ['stop', stop],
  ['fail', fail],
  ['delay', delay],
  ['approval', waitForPerson],
  ['form', waitForPerson],
  ['subworkflow', waitForChild],
]);

/** Control steps that never wait and touch nothing outside the run: pure when every step they hold is. */
const CONTAINED = new Set(['condition', 'switch', 'loop', 'parallel', 'set', 'stop', 'fail']);

/** The step lists a control step holds (its branches, cases, body), as the functions above run them. */
function nestedLists(step: StepDefinition): StepDefinition[][] {
  const lists: unknown[] =
    step.type === 'condition'
      ? [step.then, step.else]
      : step.type === 'switch'
        ? [...((step.cases as { steps?: unknown }[] | undefined) ?? []).map((c) => c.steps), step.default]
        : step.type === 'loop'
          ? [step.steps]
          : step.type === 'parallel'
            ? ((step.branches as unknown[] | undefined) ?? [])
            : [];
  return lists.filter((l): l is StepDefinition[] => Array.isArray(l));
}

/**
 * Whether a list of steps only computes: every action step pure (StepExecutor.pure), every
 * control step one that cannot wait, and no retry policy (whose backoff would sleep). Such a run
 * has no effect outside itself until its records are written (runner/pure-runs.ts).
 */
export function isPureList(steps: StepDefinition[], pureAction: (type: string) => boolean): boolean {
  return steps.every((step) =>
    step.retry
      ? false
      : CONTAINED.has(step.type)
        ? nestedLists(step).every((list) => isPureList(list, pureAction))
        : !CONTROL_STEPS.has(step.type) && pureAction(step.type),
  );
}
