import { Inject, Injectable } from '@nestjs/common';
import { EXECUTION_STORE, type ExecutionStore } from '../engine.ports.js';
import { ExecutionEvents } from '../execution.events.js';
import type { ExecutionRow, Settlement } from '../execution.records.js';
import { ChildExecutions } from './child-executions.js';
import type { Outcome } from '../interpreter/interpreter.js';
import type { FinishedRun } from './run.interpreter.js';
import type { WakeUp } from './wake-up.js';
import { WorkerIdentity } from './worker.identity.js';

/** Waits shorter than this are woken by this process; the reconciler is the durable backstop for every wait. */
const LOCAL_WAKE_MAX_MS = 60_000;

/** The state a run's outcome leaves its execution in; undefined when that is not the worker's to write (lost lease, cancel). */
export function settlementOf(outcome: Outcome): Settlement | undefined {
  switch (outcome.status) {
    case 'lease_lost':
    case 'cancelled':
      return undefined;
    case 'succeeded':
      return { status: 'succeeded', output: outcome.output, error: null };
    case 'failed':
      return { status: 'failed', error: outcome.error };
    case 'timed_out':
      return { status: 'timed_out', error: { code: 'timed_out', message: 'The execution took longer than its timeout', step_id: null } };
    case 'waiting':
      return { status: 'waiting', wakeAt: outcome.wakeAt };
  }
}

/**
 * Writes how a run ended: the held-back step records, every log line not yet written and the
 * execution's new state in one commit, under the worker's lease; then announces a finished run
 * and resolves its parent's waiting step. Says what is left to wake.
 */
@Injectable()
export class ExecutionSettler {
  constructor(
    @Inject(EXECUTION_STORE) private readonly store: ExecutionStore,
    private readonly events: ExecutionEvents,
    private readonly children: ChildExecutions,
    private readonly worker: WorkerIdentity,
  ) {}

  async settle(execution: ExecutionRow, run: FinishedRun): Promise<WakeUp[]> {
    // Children were committed by the steps that started them: whatever happens to this run, they run.
    const wakeUps = [...run.children];
    const state = settlementOf(run.outcome);
    if (!state) return wakeUps; // the owner of the new state settled it
    const settled = await this.store.commit(execution, this.worker.id, { steps: run.steps, logs: run.logs, settle: state });
    if (!settled) return wakeUps;
    if (state.status === 'waiting') {
      const wakeIn = state.wakeAt ? state.wakeAt.getTime() - Date.now() : -1;
      if (wakeIn >= 0 && wakeIn < LOCAL_WAKE_MAX_MS) wakeUps.push({ execution, token: `wake:${state.wakeAt!.getTime()}`, at: state.wakeAt! });
      return wakeUps;
    }
    const finished = { ...execution, status: state.status, output: 'output' in state ? state.output : null, error: state.error ?? null };
    this.events.finished(finished);
    const parent = await this.children.finished(finished);
    if (parent) wakeUps.push(parent);
    return wakeUps;
  }
}
