import { Injectable, Logger } from '@nestjs/common';
import { newId } from '@platform/common';
import { TenantDb, type TenantContext } from '@platform/db';
import { ExecutionStarter } from '../executions/execution.starter.js';
import type { ExecutionRow } from '../executions/execution.records.js';
import { executionsRepository } from '../executions/executions.repository.js';
import { ExecutionQueue } from './work-queue.js';

/** Subworkflow steps: a child execution per step path, and the parent woken when the child ends. */
@Injectable()
export class ChildExecutions {
  private readonly logger = new Logger(ChildExecutions.name);

  constructor(
    private readonly starter: ExecutionStarter,
    private readonly db: TenantDb,
    private readonly queue: ExecutionQueue,
  ) {}

  async start(parent: ExecutionRow, ctx: TenantContext, workflowId: string, input: Record<string, unknown>, path: string): Promise<string> {
    const { execution } = await this.starter.start(ctx, {
      workflowId,
      input,
      trigger: { type: 'subworkflow', id: parent.id },
      // Idempotent by parent and path: a redelivered parent does not start a second child.
      idempotencyKey: `subworkflow:${parent.id}:${path}`,
      parent: { executionId: parent.id, stepPath: path },
    });
    return execution.id;
  }

  async finished(child: ExecutionRow, ctx: TenantContext): Promise<void> {
    if (!child.parent_execution_id || !child.parent_step_path) return;
    const succeeded = child.status === 'succeeded';
    const resolved = await this.db.run(ctx, (m) =>
      executionsRepository.resolveWaitingStep(m, ctx as never, child.parent_execution_id!, child.parent_step_path!, {
        id: newId(),
        status: succeeded ? 'succeeded' : 'failed',
        output: succeeded ? child.output : null,
        error: succeeded ? null : { code: 'subworkflow_failed', message: `Child execution ${child.id} ended ${child.status}: ${child.error?.message ?? ''}`.trim(), step_id: child.parent_step_path!.split('/').pop() ?? null },
      }),
    );
    if (resolved) await this.queue.enqueue({ executionId: child.parent_execution_id, tenantId: ctx.tenantId, environmentId: ctx.environmentId, scopeId: ctx.scopeId ?? null }, `child:${child.id}`);
    else this.logger.warn(`parent ${child.parent_execution_id} was not waiting on ${child.parent_step_path}`);
  }
}
