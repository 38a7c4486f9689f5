import { Injectable } from '@nestjs/common';
import { RunSubjects } from '@platform/messaging';
import { ExecutionEvents } from '../execution.events.js';
import type { ClaimedExecution, DraftExecution, ExecutionRow, FinishedAhead, RunnableDefinition } from '../execution.records.js';
import { isPureList } from '../interpreter/control-steps.js';
import { referencedSecrets } from '../redaction.js';
import { StepRegistry } from '../step-registry.js';
import { DefinitionsCache } from './definitions.cache.js';
import { settlementOf } from './execution.settler.js';
import { RunInterpreter } from './run.interpreter.js';

/**
 * Past this, a run ahead of its row gives up (timed_out here) and the start runs it as usual: a
 * loop of transforms over a huge list must not hold the request that started it.
 */
const AHEAD_BUDGET_MS = 250;

/**
 * Runs of workflows that only compute (transform, set, condition… : isPureList) are done before
 * their execution row exists, by the worker that accepted the start, and written with it in one
 * transaction (run.start_finished): no second commit, no hand-off to a worker, no claim. Nothing
 * of the run is seen outside before that commit, so a crash before it loses only an unanswered
 * start, like any start. The version run is the one the workflow's last start here was made
 * from; the start writes the run only if it is still current, and otherwise runs the row it made
 * as usual. A workflow this process has not started yet, a definition not cached, secrets, a
 * parent or an Idempotency-Key: the usual way.
 */
@Injectable()
export class PureRuns {
  private readonly pure = new WeakMap<RunnableDefinition, boolean>();

  constructor(
    private readonly definitions: DefinitionsCache,
    private readonly registry: StepRegistry,
    private readonly interpreter: RunInterpreter,
    private readonly events: ExecutionEvents,
  ) {}

  /** The run of a new execution before its row, or undefined when it is to run the usual way. */
  async runAhead(draft: DraftExecution): Promise<FinishedAhead | undefined> {
    const current = this.definitions.peekCurrent(draft.tenant_id, draft.workflow_id);
    if (!current || !this.isPure(current.definition)) return undefined;
    const startedAt = new Date();
    const execution: ClaimedExecution = {
      ...draft,
      workflow_version: current.version,
      status: 'running',
      output: null,
      error: null,
      parent_execution_id: null,
      parent_step_path: null,
      idempotency_key: null,
      request_hash: null,
      created_at: startedAt,
      started_at: startedAt,
      finished_at: null,
      timeout_at: new Date(startedAt.getTime() + AHEAD_BUDGET_MS),
      wake_at: null,
      previous_status: 'queued',
    };
    // Not AbortSignal.timeout: its timer would fire 250 ms after every run, long done, and abort
    // a signal no one listens to any more (a DOMException and an event per run, under load).
    const budget = new AbortController();
    const timer = setTimeout(() => budget.abort(new DOMException('The run ahead took too long', 'TimeoutError')), AHEAD_BUDGET_MS);
    let run;
    try {
      run = await this.interpreter.interpret(execution, { definition: current.definition, records: [] }, {}, budget.signal, true);
    } finally {
      clearTimeout(timer);
    }
    const settle = settlementOf(run.outcome);
    if (settle?.status !== 'succeeded' && settle?.status !== 'failed') return undefined;
    return { version: current.version, startedAt, steps: run.steps, logs: run.logs, settle };
  }

  /** A start was made: the workflow's next start may run ahead on this version. */
  started(execution: ExecutionRow): void {
    this.definitions.noteCurrent(execution.tenant_id, execution.workflow_id, execution.workflow_version);
  }

  /** A run written settled with its row: announced as a worker announces a run it started and ended. */
  announce(execution: ExecutionRow): void {
    this.events.emit(RunSubjects.executionStarted, execution, 'running');
    this.events.finished(execution);
  }

  private isPure(definition: RunnableDefinition): boolean {
    let pure = this.pure.get(definition);
    if (pure === undefined) {
      pure = !referencedSecrets(definition.steps).length && isPureList(definition.steps, (type) => this.registry.get(type)?.pure === true);
      this.pure.set(definition, pure);
    }
    return pure;
  }
}
