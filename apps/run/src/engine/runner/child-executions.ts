import { Inject, Injectable, Logger } from '@nestjs/common';
import { newId } from '@platform/common';
import { EXECUTION_STORE, type ExecutionStore } from '../engine.ports.js';
import { tenantOf, type ExecutionRow } from '../execution.records.js';
import type { WakeUp } from './wake-up.js';

/**
 * Subworkflow steps: a child execution per step path, and the parent woken when the child ends.
 * Both only say whom to wake: the dispatcher wakes them once the run that caused it has settled.
 */
@Injectable()
export class ChildExecutions {
  private readonly logger = new Logger(ChildExecutions.name);

  constructor(@Inject(EXECUTION_STORE) private readonly store: ExecutionStore) {}

  /** The child's id, and its wake-up when this call made it (a redelivered parent finds the first child). */
  async start(parent: ExecutionRow, workflowId: string, input: Record<string, unknown>, path: string): Promise<{ id: string; wakeUp?: WakeUp }> {
    const { execution, created } = await this.store.start(
      tenantOf(parent),
      {
        workflowId,
        input,
        trigger: { type: 'subworkflow', id: parent.id },
        // Idempotent by parent and path: a redelivered parent does not start a second child.
        idempotencyKey: `subworkflow:${parent.id}:${path}`,
        parent: { executionId: parent.id, stepPath: path },
        // The child belongs to the request that started its parent.
        requestId: parent.request_id ?? undefined,
      },
      null,
    );
    return { id: execution.id, wakeUp: created ? { execution, token: 'start' } : undefined };
  }

  /** Records the child's end on the parent's waiting step; the parent's wake-up when it was waiting there. */
  async finished(child: ExecutionRow): Promise<WakeUp | undefined> {
    if (!child.parent_execution_id || !child.parent_step_path) return undefined;
    const succeeded = child.status === 'succeeded';
    const ctx = tenantOf(child);
    const resolution = await this.store.resolveTaskStep(
      ctx,
      {
        executionId: child.parent_execution_id,
        stepPath: child.parent_step_path,
        stepRowId: newId(),
        status: succeeded ? 'succeeded' : 'failed',
        output: succeeded ? child.output : null,
        error: succeeded
          ? null
          : {
              code: 'subworkflow_failed',
              message: `Child execution ${child.id} ended ${child.status}: ${child.error?.message ?? ''}`.trim(),
              step_id: child.parent_step_path.split('/').pop() ?? null,
              final: true,
            },
      },
      null,
    );
    // `done`: a redelivered end, recorded before (or the parent has finished): nothing to wake.
    if (resolution?.state === 'done') return undefined;
    if (resolution?.state !== 'resolved') {
      this.logger.warn(`parent ${child.parent_execution_id} was not waiting on ${child.parent_step_path}`);
      return undefined;
    }
    const parent = {
      id: child.parent_execution_id,
      tenant_id: child.tenant_id,
      environment_id: child.environment_id,
      scope_id: child.scope_id,
      request_id: child.request_id,
    };
    return { execution: parent, token: `child:${child.id}` };
  }
}
