import { Inject, Injectable } from '@nestjs/common';
import { SecretRedactor, newId } from '@platform/common';
import { RUN_CONFIG, type RunConfig } from '../../config/run.config.js';
import { EXECUTION_STORE, type ExecutionStore } from '../engine.ports.js';
import { stepRecorded } from '../engine.metrics.js';
import { runContext, tenantOf, type ClaimedExecution, type LogLine, type NewStepRecord } from '../execution.records.js';
import { Interpreter, type InterpreterHost, type Outcome } from '../interpreter/interpreter.js';
import { AbortRun } from '../interpreter/signals.js';
import { StepRegistry } from '../step-registry.js';
import type { LogLevel, StepSettings } from '../steps/step-executor.js';
import { ChildExecutions } from './child-executions.js';
import { HumanTasks } from './human-tasks.js';
import type { LoadedExecution } from './execution-context.loader.js';
import type { WakeUp } from './wake-up.js';
import { WorkerIdentity } from './worker.identity.js';

/** Log lines held between two commits at most: a step that logs in a loop must not fill the database. */
const MAX_LOG_LINES = 1000;

/** How a run ended, with what settling it still has to write and wake. */
export interface FinishedRun {
  outcome: Outcome;
  /**
   * Step records held back to be committed with the settlement: the final step's (nothing runs in
   * between) and pure steps' not committed yet (StepExecutor.pure).
   */
  steps: NewStepRecord[];
  /** Log lines not yet written. */
  logs: LogLine[];
  /** Children this run started: dispatched once the run's own state is committed. */
  children: WakeUp[];
}

/**
 * Runs the interpreter over a claimed execution: step records are committed under the worker's
 * lease as they come, log lines gather until the next commit, secrets are redacted from both,
 * a subworkflow step starts its child here, and an approval or form step asks for its task.
 */
@Injectable()
export class RunInterpreter {
  private readonly settings: StepSettings;

  constructor(
    private readonly registry: StepRegistry,
    @Inject(EXECUTION_STORE) private readonly store: ExecutionStore,
    private readonly children: ChildExecutions,
    private readonly worker: WorkerIdentity,
    private readonly humanTasks: HumanTasks,
    @Inject(RUN_CONFIG) config: RunConfig,
  ) {
    this.settings = {
      allowPrivateNetworks: config.HTTP_ALLOW_PRIVATE_NETWORKS,
      httpResponseLimitBytes: config.HTTP_RESPONSE_LIMIT_BYTES,
      httpDefaultTimeoutMs: config.HTTP_DEFAULT_TIMEOUT_MS,
      codeTimeoutMs: config.CODE_TIMEOUT_MS,
      codeMemoryLimitBytes: config.CODE_MEMORY_LIMIT_BYTES,
    };
  }

  /**
   * `ahead`: the execution's row does not exist yet (pure-runs.ts): every record is held for the
   * start to write. Only workflows of pure steps run so (isPureList: no child, task or wait); a
   * commit before a step with effects, should one be reached, ends the run as not ours to finish
   * here (lease_lost), and the start runs it as usual.
   */
  async interpret(
    execution: ClaimedExecution,
    loaded: LoadedExecution,
    secrets: Record<string, string>,
    signal: AbortSignal,
    ahead = false,
  ): Promise<FinishedRun> {
    const logs: LogLine[] = [];
    const children: WakeUp[] = [];
    // Held-back records: a pure step's record rides on the next commit, so a run of transforms
    // costs one round trip, not one each. Recomputing them after a crash changes nothing outside.
    const held: NewStepRecord[] = [];
    const pure = (record: NewStepRecord) => this.registry.get(record.type)?.pure === true;
    const commitHeld = async (record?: NewStepRecord) => {
      if (ahead) throw new AbortRun('lease_lost');
      const steps = held.splice(0, held.length);
      if (record) steps.push(record);
      if (!steps.length) return;
      const owned = await this.store.commit(execution, workerId, { steps, logs: flushLogs() });
      if (!owned) throw new AbortRun('lease_lost');
    };
    // Secret values are resolved at run time and never stored: every input, output, error and log line is redacted before it is written.
    const redactor = SecretRedactor.of(secrets);
    const flushLogs = () => logs.splice(0, logs.length);
    const workerId = this.worker.id;
    const host: InterpreterHost = {
      executionId: execution.id,
      workerId,
      workflowId: execution.workflow_id,
      tenant: { ...tenantOf(execution), requestId: runContext(execution).requestId },
      settings: this.settings,
      signal,
      redactor,
      record: async (record, last) => {
        stepRecorded(record);
        if (ahead || last || pure(record)) held.push(record);
        else await commitHeld(record);
      },
      flush: () => commitHeld(),
      log: (stepId: string | null, level: LogLevel, message: string, data?: Record<string, unknown>) => {
        if (logs.length < MAX_LOG_LINES)
          logs.push({
            id: newId(),
            step_id: stepId,
            level,
            message: redactor.redact(message),
            data: data ? redactor.redact(data) : null,
            created_at: new Date(),
          });
      },
      startChild: async (workflowId, input, path) => {
        const child = await this.children.start(execution, workflowId, input, path);
        if (child.wakeUp) children.push(child.wakeUp);
        return child.id;
      },
      unknownAssignee: (task) => this.humanTasks.unknownAssignee(execution, task),
      requestTask: (task) => this.humanTasks.request(execution, loaded.definition.name, task),
    };
    const bindings = {
      input: execution.input,
      execution: { id: execution.id, workflow_id: execution.workflow_id, started_at: execution.started_at?.toISOString() ?? null },
      secrets,
    };
    const outcome = await new Interpreter(this.registry, host, loaded.records, bindings).run(loaded.definition.steps);
    if ('output' in outcome) outcome.output = redactor.redact(outcome.output);
    if (outcome.status === 'failed') outcome.error = redactor.redact(outcome.error);
    return { outcome, steps: held, logs: flushLogs(), children };
  }
}
