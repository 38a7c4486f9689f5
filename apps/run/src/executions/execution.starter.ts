import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AppError, ConflictError, NotFoundError, newId } from '@platform/common';
import { TenantDb, type TenantContext } from '@platform/db';
import { RUN_CONFIG, type RunConfig } from '../config/run.config.js';
import { LocalRuns } from '../engine/local-runs.js';
import { ExecutionQueue } from '../engine/work-queue.js';
import { workflowsRepository } from '../workflows/workflows.repository.js';
import type { ExecutionRow, ExecutionStatus } from './execution.records.js';
import { executionsRepository, type NewStart } from './executions.repository.js';

export interface StartRequest {
  workflowId: string;
  input: Record<string, unknown>;
  trigger: { type: string; id: string | null };
  idempotencyKey?: string;
  parent?: { executionId: string; stepPath: string };
}

const DAY_MS = 24 * 3600 * 1000;

export interface StartResult {
  execution: ExecutionRow;
  created: boolean;
  /** What the caller is told: `queued` for a new run (accepted, not yet done), else the run's status. */
  status: ExecutionStatus;
}

/**
 * Every way a run starts (API, execute, NATS from triggers/webhooks/portal, subworkflow) comes
 * here: the execution row is committed first, then it runs. With a free local slot the row is
 * inserted already claimed by this process, which runs it at once; otherwise a worker is woken
 * through the queue.
 */
@Injectable()
export class ExecutionStarter {
  constructor(
    private readonly db: TenantDb,
    private readonly queue: ExecutionQueue,
    private readonly local: LocalRuns,
    @Inject(RUN_CONFIG) private readonly config: RunConfig,
  ) {}

  async start(ctx: TenantContext, request: StartRequest): Promise<StartResult> {
    const inputJson = JSON.stringify(request.input ?? {});
    const size = Buffer.byteLength(inputJson);
    if (size > this.config.RUN_INPUT_LIMIT_BYTES) throw new AppError('input_too_large', 413, `input is ${size} bytes; the limit is ${this.config.RUN_INPUT_LIMIT_BYTES}`);
    const requestHash = request.idempotencyKey ? createHash('sha256').update(JSON.stringify({ w: request.workflowId, i: request.input })).digest('hex') : null;
    const start: NewStart = {
      id: newId(),
      workflowId: request.workflowId,
      inputJson,
      triggerType: request.trigger.type,
      triggerId: request.trigger.id,
      parentExecutionId: request.parent?.executionId ?? null,
      parentStepPath: request.parent?.stepPath ?? null,
      idempotencyKey: request.idempotencyKey ?? null,
      requestHash,
      defaultTimeoutSeconds: this.config.RUN_DEFAULT_TIMEOUT_SECONDS,
    };
    const inline = this.local.reserve();
    let handed = false;
    try {
      const result = await this.insert(ctx, start, inline);
      if (result.created) {
        const e = result.execution;
        if (inline) {
          this.local.hand({ ...e, previous_status: 'queued' });
          handed = true;
        } else {
          await this.queue.enqueue({ executionId: e.id, tenantId: e.tenant_id, environmentId: e.environment_id, scopeId: e.scope_id }, 'start');
        }
      }
      return { ...result, status: result.created ? 'queued' : result.execution.status };
    } finally {
      if (inline && !handed) this.local.release();
    }
  }

  private async insert(ctx: TenantContext, start: NewStart, inline: boolean): Promise<{ execution: ExecutionRow; created: boolean }> {
    const claim = inline ? { worker: this.local.workerId, leaseMs: this.local.leaseMs } : null;
    const key = start.idempotencyKey;
    if (!key) {
      // The common case: one round trip.
      const execution = await executionsRepository.start(this.db, ctx, start, claim);
      if (execution) return { execution, created: true };
      return this.db.run(ctx, async (m) => this.refusal(m, start.workflowId));
    }
    return this.db.run(ctx, async (m) => {
      const previous = await executionsRepository.byIdempotencyKey(m, key);
      if (previous && previous.created_at.getTime() > Date.now() - DAY_MS) {
        if (previous.request_hash !== start.requestHash) throw new ConflictError('idempotency_mismatch', 'This Idempotency-Key was used with a different request');
        return { execution: previous, created: false };
      }
      if (previous) await executionsRepository.releaseIdempotencyKey(m, previous.id);
      const execution = await executionsRepository.startIn(m, ctx, start, claim);
      if (!execution) return this.refusal(m, start.workflowId);
      return { execution, created: true };
    });
  }

  /** Only a refused start pays for the query that says why. */
  private async refusal(m: EntityManager, workflowId: string): Promise<never> {
    const workflow = await workflowsRepository.get(m, workflowId);
    if (!workflow) throw new NotFoundError('Workflow');
    throw new ConflictError('workflow_disabled', 'The workflow is disabled');
  }
}
