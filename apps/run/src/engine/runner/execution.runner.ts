import { Injectable } from '@nestjs/common';
import { runInRequestContext } from '@platform/common';
import { RunSubjects } from '@platform/messaging';
import { ExecutionEvents } from '../execution.events.js';
import { runContext, type ClaimedExecution, type ExecutionError } from '../execution.records.js';
import { ExecutionContextLoader } from './execution-context.loader.js';
import { ExecutionSettler } from './execution.settler.js';
import { LeaseKeeper } from './lease.keeper.js';
import { RunInterpreter, type FinishedRun } from './run.interpreter.js';
import type { WakeUp } from './wake-up.js';

const failedBeforeAnyStep = (error: ExecutionError): FinishedRun => ({ outcome: { status: 'failed', error }, steps: [], logs: [], children: [] });

/**
 * Runs one execution this worker has claimed, from its context to its settlement, while the
 * lease keeper holds it. Returns what the run left to wake; the dispatcher wakes it.
 */
@Injectable()
export class ExecutionRunner {
  constructor(
    private readonly leases: LeaseKeeper,
    private readonly loader: ExecutionContextLoader,
    private readonly events: ExecutionEvents,
    private readonly interpreter: RunInterpreter,
    private readonly settler: ExecutionSettler,
  ) {}

  /** In the run's request context: its log lines and every message it causes carry the id of the request that started it. */
  run(execution: ClaimedExecution, keepAlive: () => void = () => undefined): Promise<WakeUp[]> {
    return runInRequestContext(runContext(execution), async () => {
      const hold = this.leases.hold(execution, keepAlive);
      try {
        return await this.settler.settle(execution, await this.execute(execution, hold.signal));
      } finally {
        hold.release();
      }
    });
  }

  private async execute(execution: ClaimedExecution, signal: AbortSignal): Promise<FinishedRun> {
    const loaded = await this.loader.load(execution);
    if (!loaded) return failedBeforeAnyStep({ code: 'workflow_missing', message: 'The workflow version no longer exists', step_id: null });
    if (execution.previous_status === 'queued') this.events.emit(RunSubjects.executionStarted, execution, 'running');
    const secrets = await this.loader.secrets(execution, loaded.definition);
    if ('error' in secrets) return failedBeforeAnyStep(secrets.error);
    return this.interpreter.interpret(execution, loaded, secrets.values, signal);
  }
}
