import { createHash, randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AppError, ConflictError, NotFoundError, currentRequestContext, newId } from '@platform/common';
import { SystemDb, TenantDb, type TenantContext } from '@platform/db';
import { usageEventId } from '@platform/messaging';
import { pendingUsage } from '@platform/service';
import { RUN_CONFIG, type RunConfig } from '../config/run.config.js';
import type { ExecutionStore } from '../engine/engine.ports.js';
import {
  tenantOf,
  type Claim,
  type ClaimedExecution,
  type DraftExecution,
  type DueExecution,
  type FinishedAhead,
  type RunAhead,
  type ExecutionRow,
  type WaitingStepEnd,
  type WaitingStepResolution,
  type StartRequest,
  type StartResult,
  type StepCommit,
  type StepRecord,
} from '../engine/execution.records.js';
import { workflowExists } from '../workflows/index.js';
import { executionsRepository, type NewStart } from './executions.repository.js';
import { FinishedStarts } from './finished-starts.js';
import { systemExecutionsRepository } from './system-executions.repository.js';

const DAY_MS = 24 * 3600 * 1000;

/** The new execution as the start will write it, for a run ahead of its row. */
const draftOf = (ctx: TenantContext, start: NewStart, request: StartRequest): DraftExecution => ({
  tenant_id: ctx.tenantId,
  environment_id: ctx.environmentId,
  scope_id: ctx.scopeId ?? null,
  id: start.id,
  workflow_id: start.workflowId,
  input: request.input ?? {},
  trigger_type: start.triggerType,
  trigger_id: start.triggerId,
  request_id: start.requestId,
});
const UNIQUE_VIOLATION = '23505';

/** The engine's ExecutionStore: executions in PostgreSQL, each call in its own transaction. */
@Injectable()
export class ExecutionStoreService implements ExecutionStore {
  constructor(
    private readonly db: TenantDb,
    private readonly system: SystemDb,
    private readonly finished: FinishedStarts,
    @Inject(RUN_CONFIG) private readonly config: RunConfig,
  ) {}

  async start(ctx: TenantContext, request: StartRequest, claim: Claim | null, ahead?: RunAhead | null): Promise<StartResult> {
    const start = this.prepare(ctx, request);
    const key = start.idempotencyKey;
    if (!key) {
      // The common case: one round trip, with the run in it when it could be done ahead.
      const done = claim && ahead && !request.parent ? await ahead(draftOf(ctx, start, request)) : undefined;
      const execution = await this.insertOnce(ctx, start, claim, request.executionId !== undefined, done);
      if (execution === 'exists') return this.existing(ctx, start);
      if (execution) return this.created(execution, start);
      return this.db.run(ctx, async (m) => this.refusal(m, start.workflowId));
    }
    // Two starts with one key at the same moment: the loser's insert meets the winner's row in
    // the unique index, and its second pass answers the winner's run like any repeat.
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.startOnce(ctx, start, key, claim);
      } catch (error) {
        if (attempt >= 3 || (error as { code?: string }).code !== UNIQUE_VIOLATION) throw error;
      }
    }
  }

  /** With a caller-chosen id, a second start meets the first run's row in the primary key. */
  private async insertOnce(
    ctx: TenantContext,
    start: NewStart,
    claim: Claim | null,
    chosenId: boolean,
    done?: FinishedAhead,
  ): Promise<ExecutionRow | undefined | 'exists'> {
    try {
      return await (done && claim ? this.finished.write(ctx, { start, claim, run: done }) : executionsRepository.start(this.db, ctx, start, claim));
    } catch (error) {
      if (chosenId && (error as { code?: string }).code === UNIQUE_VIOLATION) return 'exists';
      throw error;
    }
  }

  private async existing(ctx: TenantContext, start: NewStart): Promise<StartResult> {
    const execution = await this.db.run(ctx, (m) => executionsRepository.get(m, start.id));
    if (!execution || execution.workflow_id !== start.workflowId)
      throw new ConflictError('execution_id_taken', 'An execution with this id exists for another workflow');
    return { execution, created: false };
  }

  private startOnce(ctx: TenantContext, start: NewStart, key: string, claim: Claim | null): Promise<StartResult> {
    return this.db.run(ctx, async (m) => {
      const previous = await executionsRepository.byIdempotencyKey(m, key, ctx.scopeId ?? null);
      if (previous && previous.created_at.getTime() > Date.now() - DAY_MS) {
        if (previous.request_hash !== start.requestHash)
          throw new ConflictError('idempotency_mismatch', 'This Idempotency-Key was used with a different request');
        return { execution: previous, created: false };
      }
      if (previous) await executionsRepository.releaseIdempotencyKey(m, previous.id);
      const execution = await executionsRepository.startIn(m, ctx, start, claim);
      if (!execution) return this.refusal(m, start.workflowId);
      return this.created(execution, start);
    });
  }

  claim(ctx: TenantContext, executionId: string, claim: Claim): Promise<ClaimedExecution | undefined> {
    return executionsRepository.claim(this.db, ctx, executionId, claim);
  }

  renewLease(execution: ExecutionRow, claim: Claim): Promise<boolean> {
    return this.db.run(tenantOf(execution), (m) => executionsRepository.renewLease(m, execution.tenant_id, execution.id, claim));
  }

  steps(execution: ExecutionRow): Promise<StepRecord[]> {
    return this.db.run(tenantOf(execution), (m) => executionsRepository.steps(m, execution.id));
  }

  commit(execution: ExecutionRow, worker: string, commit: StepCommit): Promise<boolean> {
    return executionsRepository.commitStep(this.db, tenantOf(execution), execution.id, worker, commit);
  }

  resolveTaskStep(ctx: TenantContext, end: WaitingStepEnd, claim: Claim | null): Promise<WaitingStepResolution | undefined> {
    return executionsRepository.resolveTaskStep(this.db, ctx, end, claim);
  }

  due(): Promise<DueExecution[]> {
    return this.system.run('find executions due to run', (m) => systemExecutionsRepository.due(m), 'debug');
  }

  timeOutOverdue(): Promise<ExecutionRow[]> {
    return this.system.run('time out executions past their deadline', (m) => systemExecutionsRepository.timeOutOverdue(m), 'debug');
  }

  private created(execution: ExecutionRow, start: NewStart): StartResult {
    return start.usage ? { execution, created: true, usage: start.usage } : { execution, created: true };
  }

  /** The input is serialised once: for the size check, and as the insert's parameter. */
  private prepare(ctx: TenantContext, request: StartRequest): NewStart {
    const id = request.executionId ?? newId();
    const requestId = request.requestId ?? currentRequestContext()?.requestId ?? randomUUID();
    const inputJson = JSON.stringify(request.input ?? {});
    const size = Buffer.byteLength(inputJson);
    if (size > this.config.RUN_INPUT_LIMIT_BYTES)
      throw new AppError('input_too_large', 413, `input is ${size} bytes; the limit is ${this.config.RUN_INPUT_LIMIT_BYTES}`);
    return {
      id,
      workflowId: request.workflowId,
      inputJson,
      triggerType: request.trigger.type,
      triggerId: request.trigger.id,
      parentExecutionId: request.parent?.executionId ?? null,
      parentStepPath: request.parent?.stepPath ?? null,
      idempotencyKey: request.idempotencyKey ?? null,
      requestHash: request.idempotencyKey
        ? createHash('sha256')
            .update(JSON.stringify({ w: request.workflowId, i: request.input }))
            .digest('hex')
        : null,
      defaultTimeoutSeconds: this.config.RUN_DEFAULT_TIMEOUT_SECONDS,
      requestId,
      // Its event id comes from the run's id: a repeated publish of it counts once.
      usage: request.meter
        ? pendingUsage(ctx, { metric: 'runs', quantity: 1, eventId: usageEventId('run', id), keyMode: request.meter.keyMode }, { requestId })
        : null,
    };
  }

  /** Only a refused start pays for the query that says why. */
  private async refusal(m: EntityManager, workflowId: string): Promise<never> {
    if (!(await workflowExists(m, workflowId))) throw new NotFoundError('Workflow');
    throw new ConflictError('workflow_disabled', 'The workflow is disabled');
  }
}
