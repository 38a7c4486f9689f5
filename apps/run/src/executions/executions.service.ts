import { Inject, Injectable } from '@nestjs/common';
import type { Principal } from '@platform/auth';
import { ConflictError, NotFoundError, decodeCursor, newId, toPage, type Page } from '@platform/common';
import { TenantDb, type TenantContext } from '@platform/db';
import { Bus, isFinished, messageContext, RunSubjects, type ExecutionSummary, type TaskOutcomeItem } from '@platform/messaging';
import { EXECUTION_STORE, type ExecutionStore } from '../engine/engine.ports.js';
import { ExecutionEvents } from '../engine/execution.events.js';
import type { ExecutionRow, LogLine, StepRecord } from '../engine/execution.records.js';
import { RunDispatcher } from '../engine/runner/run.dispatcher.js';
import { executionsRepository } from './executions.repository.js';
import type { ListExecutionsQueryDto, ListLogsQueryDto } from './dto/execution.dto.js';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toExecutionResponse(row: ExecutionRow, steps?: StepRecord[]) {
  return {
    id: row.id,
    workflow_id: row.workflow_id,
    workflow_version: row.workflow_version,
    status: row.status,
    input: row.input,
    output: row.output ?? null,
    error: row.error ?? null,
    trigger: { type: row.trigger_type, id: row.trigger_id },
    customer_id: row.scope_id,
    parent_execution_id: row.parent_execution_id,
    created_at: row.created_at.toISOString(),
    started_at: iso(row.started_at),
    finished_at: iso(row.finished_at),
    wake_at: iso(row.wake_at),
    ...(steps ? { steps: latestPerPath(steps) } : {}),
  };
}

/** One entry per step path (its latest attempt), in the order steps started. */
function latestPerPath(records: StepRecord[]) {
  const latest = new Map<string, StepRecord>();
  for (const r of records) latest.set(r.path, r);
  return [...latest.values()].map((r) => ({
    id: r.step_id,
    path: r.path,
    type: r.type,
    status: r.status,
    attempt: r.attempt,
    started_at: r.started_at.toISOString(),
    finished_at: iso(r.finished_at),
    input: r.input,
    output: r.output,
    error: r.error ? { code: r.error.code, message: r.error.message, step_id: r.error.step_id } : null,
  }));
}

@Injectable()
export class ExecutionsService {
  constructor(
    private readonly db: TenantDb,
    private readonly bus: Bus,
    private readonly events: ExecutionEvents,
    private readonly dispatcher: RunDispatcher,
    @Inject(EXECUTION_STORE) private readonly store: ExecutionStore,
  ) {}

  async get(principal: Principal, id: string) {
    const found = await this.db.run(principal, async (m) => {
      const execution = await executionsRepository.get(m, id);
      return execution ? { execution, steps: await executionsRepository.steps(m, id) } : undefined;
    });
    if (!found) throw new NotFoundError('Execution');
    return toExecutionResponse(found.execution, found.steps);
  }

  /** Status, output and error only: what a caller waiting on a run needs, without its steps. */
  async summary(ctx: TenantContext, id: string): Promise<ExecutionSummary> {
    const execution = await this.db.run(ctx, (m) => executionsRepository.get(m, id));
    if (!execution) throw new NotFoundError('Execution');
    return { id: execution.id, workflow_id: execution.workflow_id, status: execution.status, output: execution.output ?? null, error: execution.error ?? null };
  }

  async list(principal: Principal, q: ListExecutionsQueryDto): Promise<Page<ReturnType<typeof toExecutionResponse>>> {
    const after = decodeCursor(q.cursor, { id: 'uuid' });
    const rows = await this.db.run(principal, (m) =>
      executionsRepository.list(m, {
        afterId: after?.id,
        workflowId: q.workflow_id,
        status: q.status,
        triggerType: q.trigger_type,
        from: q.created_after ? new Date(q.created_after) : undefined,
        to: q.created_before ? new Date(q.created_before) : undefined,
        limit: q.limit,
      }),
    );
    return toPage(
      rows,
      q.limit,
      (r) => toExecutionResponse(r),
      (r) => ({ id: r.id }),
    );
  }

  async logs(principal: Principal, id: string, q: ListLogsQueryDto): Promise<Page<Omit<LogLine, 'created_at'> & { created_at: string }>> {
    const after = decodeCursor(q.cursor, { id: 'uuid' });
    const rows = await this.db.run(principal, async (m) => {
      if (!(await executionsRepository.get(m, id))) throw new NotFoundError('Execution');
      return executionsRepository.logs(m, id, { afterId: after?.id, level: q.level, stepId: q.step_id, limit: q.limit });
    });
    return toPage(
      rows,
      q.limit,
      (r) => ({ ...r, created_at: r.created_at.toISOString() }),
      (r) => ({ id: r.id }),
    );
  }

  /** Final at once in the database; the worker running it (if any) is told to abort its step. */
  async cancel(principal: Principal, id: string) {
    const result = await this.db.run(principal, async (m) => {
      const current = await executionsRepository.get(m, id);
      if (!current) throw new NotFoundError('Execution');
      if (isFinished(current.status)) throw new ConflictError('execution_finished', `The execution has already finished (${current.status})`);
      const cancelled = await executionsRepository.cancel(m, id);
      if (!cancelled) throw new ConflictError('execution_finished', 'The execution finished meanwhile');
      return { cancelled, steps: await executionsRepository.steps(m, id) };
    });
    this.bus.emit(RunSubjects.executionCancelRequested, { executionId: id }, messageContext(principal));
    this.events.finished(result.cancelled);
    return toExecutionResponse(result.cancelled, result.steps);
  }

  /**
   * A human task's outcome (approval or form step): recorded on the waiting step, and the execution
   * woken (and claimed here when a slot is free), in one round trip, through the engine's port (ExecutionStore.resolveTaskStep). `early`: the step is not waiting yet (the
   * task was decided before the wait was committed), so the outcome is delivered again later;
   * `done`: nothing left to do (recorded before, or the execution has finished).
   */
  async resolveTask(ctx: TenantContext, item: TaskOutcomeItem): Promise<'resolved' | 'early' | 'done'> {
    const step_id = item.stepPath.split('/').pop() ?? null;
    const output = item.failure
      ? null
      : {
          decision: item.decision ?? 'reject',
          data: item.data ?? {},
          completed_by: item.completedBy ?? null,
          completed_at: item.completedAt,
          ...(item.status === 'expired' ? { expired: true } : {}),
        };
    const error = item.failure ? { code: 'task_expired', message: item.failure, step_id, final: true } : null;
    // With a free slot here, the execution is claimed in the statement that records the outcome.
    const result = await this.dispatcher.resume((claim) =>
      this.store.resolveTaskStep(
        ctx,
        { executionId: item.executionId, stepPath: item.stepPath, stepRowId: newId(), status: item.failure ? 'failed' : 'succeeded', output, error },
        claim,
      ),
    );
    if (result?.state === 'resolved' && !result.claimed) {
      // The wake-up travels in the context of the request the execution belongs to.
      const execution = {
        id: item.executionId,
        tenant_id: ctx.tenantId,
        environment_id: ctx.environmentId,
        scope_id: result.scope_id,
        request_id: result.request_id,
      };
      await this.dispatcher.wake(execution, `task:${item.taskId}`);
    }
    return result?.state ?? 'done';
  }
}
