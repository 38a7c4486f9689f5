import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { AppError, ConflictError, NotFoundError, newId } from '@platform/common';
import { TenantDb, type TenantContext } from '@platform/db';
import { RUN_CONFIG, type RunConfig } from '../config/run.config.js';
import { ExecutionQueue } from '../engine/work-queue.js';
import { workflowsRepository } from '../workflows/workflows.repository.js';
import type { ExecutionRow } from './execution.records.js';
import { executionsRepository } from './executions.repository.js';

export interface StartRequest {
  workflowId: string;
  input: Record<string, unknown>;
  trigger: { type: string; id: string | null };
  idempotencyKey?: string;
  parent?: { executionId: string; stepPath: string };
}

const DAY_MS = 24 * 3600 * 1000;

/**
 * Every way a run starts (API, execute, NATS from triggers/webhooks/portal, subworkflow) comes
 * here: the execution row is committed first, then a worker is woken.
 */
@Injectable()
export class ExecutionStarter {
  constructor(
    private readonly db: TenantDb,
    private readonly queue: ExecutionQueue,
    @Inject(RUN_CONFIG) private readonly config: RunConfig,
  ) {}

  async start(ctx: TenantContext, request: StartRequest): Promise<{ execution: ExecutionRow; created: boolean }> {
    const size = Buffer.byteLength(JSON.stringify(request.input ?? {}));
    if (size > this.config.RUN_INPUT_LIMIT_BYTES) throw new AppError('input_too_large', 413, `input is ${size} bytes; the limit is ${this.config.RUN_INPUT_LIMIT_BYTES}`);
    const requestHash = request.idempotencyKey ? createHash('sha256').update(JSON.stringify({ w: request.workflowId, i: request.input })).digest('hex') : null;
    const result = await this.db.run(ctx, async (m) => {
      if (request.idempotencyKey) {
        const previous = await executionsRepository.byIdempotencyKey(m, request.idempotencyKey);
        if (previous && previous.created_at.getTime() > Date.now() - DAY_MS) {
          if (previous.request_hash !== requestHash) throw new ConflictError('idempotency_mismatch', 'This Idempotency-Key was used with a different request');
          return { execution: previous, created: false };
        }
        if (previous) await executionsRepository.releaseIdempotencyKey(m, previous.id);
      }
      const execution = await executionsRepository.insertFromWorkflow(
        m,
        {
          tenantId: ctx.tenantId,
          environmentId: ctx.environmentId,
          scopeId: ctx.scopeId ?? null,
          id: newId(),
          workflowId: request.workflowId,
          input: request.input ?? {},
          triggerType: request.trigger.type,
          triggerId: request.trigger.id,
          parentExecutionId: request.parent?.executionId ?? null,
          parentStepPath: request.parent?.stepPath ?? null,
          idempotencyKey: request.idempotencyKey ?? null,
          requestHash,
        },
        this.config.RUN_DEFAULT_TIMEOUT_SECONDS,
      );
      if (!execution) {
        // Only a refusal pays for the second query that says why.
        const workflow = await workflowsRepository.get(m, request.workflowId);
        if (!workflow) throw new NotFoundError('Workflow');
        throw new ConflictError('workflow_disabled', 'The workflow is disabled');
      }
      return { execution, created: true };
    });
    if (result.created) {
      const e = result.execution;
      await this.queue.enqueue({ executionId: e.id, tenantId: e.tenant_id, environmentId: e.environment_id, scopeId: e.scope_id }, 'start');
    }
    return result;
  }
}
