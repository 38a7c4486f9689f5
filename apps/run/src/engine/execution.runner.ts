import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import { newId } from '@platform/common';
import { TenantDb, type TenantContext } from '@platform/db';
import { Bus, NATS_CONNECTION, RunSubjects, StorageSubjects, ensureWorkQueue, startWorker, type Worker } from '@platform/messaging';
import { RUN_CONFIG, type RunConfig } from '../config/run.config.js';
import type { ExecutionRow, ExecutionWorkItem, LogLine } from '../executions/execution.records.js';
import { executionsRepository, type NewStepRecord } from '../executions/executions.repository.js';
import { ExecutionEvents } from '../executions/execution.events.js';
import { DefinitionsCache } from './definitions.cache.js';
import { Interpreter, type Outcome } from './interpreter/interpreter.js';
import { Redactor, referencedSecrets } from './redaction.js';
import { AbortRun } from './interpreter/signals.js';
import { StepRegistry } from './step-registry.js';
import type { LogLevel, StepSettings } from './steps/step-executor.js';
import { ExecutionQueue } from './work-queue.js';
import { ChildExecutions } from './child-executions.js';
import { LocalRuns, type ClaimedExecution } from './local-runs.js';

const FAST = { asyncCommit: true };

/**
 * The worker: takes due executions off the queue, claims each with a lease (so replicas never run
 * one twice at once), runs it with the interpreter and settles the outcome. Every write carries
 * the lease, so a worker that lost it (cancel, takeover after a pause) cannot record anything.
 */
@Injectable()
export class ExecutionRunner implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(ExecutionRunner.name);
  private worker?: Worker;
  private cancelSub?: Subscription;
  private readonly running = new Map<string, AbortController>();
  private readonly settings: StepSettings;

  constructor(
    private readonly db: TenantDb,
    private readonly bus: Bus,
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    @Inject(RUN_CONFIG) private readonly config: RunConfig,
    private readonly registry: StepRegistry,
    private readonly definitions: DefinitionsCache,
    private readonly queue: ExecutionQueue,
    private readonly events: ExecutionEvents,
    private readonly children: ChildExecutions,
    private readonly local: LocalRuns,
  ) {
    this.settings = {
      allowPrivateNetworks: config.HTTP_ALLOW_PRIVATE_NETWORKS,
      httpResponseLimitBytes: config.HTTP_RESPONSE_LIMIT_BYTES,
      httpDefaultTimeoutMs: config.HTTP_DEFAULT_TIMEOUT_MS,
      codeTimeoutMs: config.CODE_TIMEOUT_MS,
      codeMemoryLimitBytes: config.CODE_MEMORY_LIMIT_BYTES,
    };
  }

  get workerId(): string {
    return this.local.workerId;
  }

  async onApplicationBootstrap(): Promise<void> {
    // Every replica hears a cancel; the one running the execution aborts its step.
    this.cancelSub = this.bus.subscribeAll(RunSubjects.executionCancelRequested, (event) => {
      this.running.get(event.data.executionId)?.abort(new AbortRun('cancelled'));
    });
    await ensureWorkQueue(this.nc, this.queue.spec);
    this.worker = await startWorker<ExecutionWorkItem>(
      this.nc,
      this.queue.spec,
      async (item) => {
        await this.process(item.data, () => item.working());
        return { ack: true };
      },
      { concurrency: this.config.RUN_WORKER_CONCURRENCY, onError: (error) => this.logger.error(`work item failed: ${String(error)}`) },
    );
    this.local.attach((execution) => this.runClaimed(execution).catch((error) => this.logger.error(`execution ${execution.id} failed in the worker: ${String(error)}`)));
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.all([this.worker?.stop(), this.local.drain()]);
    this.cancelSub?.unsubscribe();
  }

  async process(item: ExecutionWorkItem, keepAlive: () => void = () => undefined): Promise<void> {
    const ctx: TenantContext = { tenantId: item.tenantId, environmentId: item.environmentId, scopeId: item.scopeId };
    // The worker's writes commit asynchronously: if PostgreSQL itself crashed and lost them, the
    // steps would simply run again (at least once), and a crash of this service loses nothing.
    const claimed = await this.db.run(ctx, (m) => executionsRepository.claim(m, item.executionId, this.workerId, this.config.RUN_LEASE_MS), FAST);
    if (!claimed) return; // not due, finished, or another worker holds it
    await this.runClaimed(claimed, keepAlive);
  }

  /** Runs an execution this worker holds the lease of, keeping the lease alive, and settles it. */
  async runClaimed(claimed: ClaimedExecution, keepAlive: () => void = () => undefined): Promise<void> {
    const ctx: TenantContext = { tenantId: claimed.tenant_id, environmentId: claimed.environment_id, scopeId: claimed.scope_id };
    const controller = new AbortController();
    this.running.set(claimed.id, controller);
    const timers: NodeJS.Timeout[] = [];
    try {
      const untilTimeout = claimed.timeout_at.getTime() - Date.now();
      if (untilTimeout <= 0) controller.abort(new AbortRun('timed_out'));
      else timers.push(setTimeout(() => controller.abort(new AbortRun('timed_out')), untilTimeout));
      timers.push(
        setInterval(() => {
          keepAlive();
          void this.db
            .run(ctx, (m) => executionsRepository.renewLease(m, claimed.tenant_id, claimed.id, this.workerId, this.config.RUN_LEASE_MS))
            .then((owned) => (owned ? undefined : controller.abort(new AbortRun('lease_lost'))))
            .catch(() => undefined);
        }, this.config.RUN_LEASE_MS / 3),
      );
      const outcome = await this.execute(claimed, ctx, controller.signal);
      await this.settle(claimed, ctx, outcome);
    } finally {
      timers.forEach(clearTimeout);
      this.running.delete(claimed.id);
    }
  }

  private async execute(execution: ClaimedExecution, ctx: TenantContext, signal: AbortSignal): Promise<Outcome> {
    const logs: LogLine[] = [];
    // A fresh run has no history to replay: one query fewer on the hot path.
    const fresh = execution.previous_status === 'queued';
    const cached = this.definitions.peek(execution.tenant_id, execution.workflow_id, execution.workflow_version);
    const [definition, records] =
      cached && fresh
        ? [cached, []]
        : await this.db.run(ctx, async (m) => [
            await this.definitions.get(m, execution.tenant_id, execution.workflow_id, execution.workflow_version),
            fresh ? [] : await executionsRepository.steps(m, execution.id),
          ]);
    if (!definition) return { status: 'failed', error: { code: 'workflow_missing', message: 'The workflow version no longer exists', step_id: null } };
    if (fresh) this.events.emit(RunSubjects.executionStarted, execution, 'running');

    let secrets: Record<string, string> = {};
    const names = referencedSecrets(definition.steps);
    if (names.length) {
      try {
        const resolved = await this.bus.request(StorageSubjects.secretsResolve, { names, purpose: `run:execution:${execution.id}` }, { requestId: '', tenantId: ctx.tenantId, environmentId: ctx.environmentId, scopeId: ctx.scopeId, actor: `run:execution:${execution.id}` });
        if (resolved.missing.length) return { status: 'failed', error: { code: 'secret_missing', message: `Unknown secret(s): ${resolved.missing.join(', ')}`, step_id: null } };
        secrets = resolved.values;
      } catch (error) {
        return { status: 'failed', error: { code: 'secrets_unavailable', message: `Secrets could not be read: ${(error as Error).message}`, step_id: null } };
      }
    }
    const redactor = new Redactor(secrets);
    const flushLogs = () => logs.splice(0, logs.length);
    const interpreter = new Interpreter(
      this.registry,
      {
        executionId: execution.id,
        workerId: this.workerId,
        workflowId: execution.workflow_id,
        tenant: { ...ctx, requestId: '' },
        settings: this.settings,
        signal,
        redactor,
        record: async (record, last) => {
          if (last) {
            // Committed with the settlement, in one transaction: nothing runs in between.
            this.deferred.set(execution.id, { record, logs: flushLogs() });
            return;
          }
          const owned = await executionsRepository.commitStep(this.db, ctx, execution.id, this.workerId, { step: record, logs: flushLogs() });
          if (!owned) throw new AbortRun('lease_lost');
        },
        log: (stepId: string | null, level: LogLevel, message: string, data?: Record<string, unknown>) => {
          if (logs.length < 1000) logs.push({ id: newId(), step_id: stepId, level, message: redactor.redact(message), data: data ? redactor.redact(data) : null, created_at: new Date() });
        },
        startChild: (workflowId, input, path) => this.children.start(execution, ctx, workflowId, input, path),
      },
      records,
      { input: execution.input, execution: { id: execution.id, workflow_id: execution.workflow_id, started_at: execution.started_at?.toISOString() ?? null }, secrets },
    );
    const outcome = await interpreter.run(definition.steps);
    if ('output' in outcome) outcome.output = redactor.redact(outcome.output);
    if (outcome.status === 'failed') outcome.error = redactor.redact(outcome.error);
    this.pendingLogs.set(execution.id, flushLogs());
    return outcome;
  }

  private readonly pendingLogs = new Map<string, LogLine[]>();
  private readonly deferred = new Map<string, { record: NewStepRecord; logs: LogLine[] }>();

  private async settle(execution: ExecutionRow, ctx: TenantContext, outcome: Outcome): Promise<void> {
    const logs = this.pendingLogs.get(execution.id) ?? [];
    this.pendingLogs.delete(execution.id);
    const deferred = this.deferred.get(execution.id);
    this.deferred.delete(execution.id);
    if (outcome.status === 'lease_lost' || outcome.status === 'cancelled') return; // the owner of the new state settled it
    const state =
      outcome.status === 'succeeded'
        ? { status: 'succeeded' as const, output: outcome.output, error: null }
        : outcome.status === 'failed'
          ? { status: 'failed' as const, error: outcome.error }
          : outcome.status === 'timed_out'
            ? { status: 'timed_out' as const, error: { code: 'timed_out', message: 'The execution took longer than its timeout', step_id: null } }
            : { status: 'waiting' as const, wakeAt: outcome.status === 'waiting' ? outcome.wakeAt : null };
    // The last step, every log line not yet written and the new state: one commit.
    const settled = await executionsRepository.commitStep(this.db, ctx, execution.id, this.workerId, {
      step: deferred?.record,
      logs: [...(deferred?.logs ?? []), ...logs],
      settle: state,
    });
    if (!settled) return;
    if (state.status === 'waiting') {
      // Short waits are woken from here; the reconciler is the durable backstop for every wait.
      const wakeIn = state.wakeAt ? state.wakeAt.getTime() - Date.now() : -1;
      if (wakeIn >= 0 && wakeIn < 60_000) {
        setTimeout(() => void this.queue.enqueue(this.itemOf(execution), `wake:${state.wakeAt!.getTime()}`), wakeIn + 5).unref();
      }
      return;
    }
    const finished = { ...execution, status: state.status, output: 'output' in state ? state.output : null, error: state.error ?? null };
    this.events.finished(finished);
    if (execution.parent_execution_id) await this.children.finished(finished, ctx);
  }

  itemOf(execution: Pick<ExecutionRow, 'id' | 'tenant_id' | 'environment_id' | 'scope_id'>): ExecutionWorkItem {
    return { executionId: execution.id, tenantId: execution.tenant_id, environmentId: execution.environment_id, scopeId: execution.scope_id };
  }
}
