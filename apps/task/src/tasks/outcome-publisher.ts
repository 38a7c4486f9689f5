import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import { SystemDb, type TenantContext } from '@platform/db';
import {
  Bus,
  NATS_CONNECTION,
  TaskSubjects,
  enqueueWork,
  messageContext,
  publishFailure,
  type AgentApprovalOutcomeItem,
  type TaskOutcomeItem,
} from '@platform/messaging';
import { toTaskEvent, type TaskRow } from './task.record.js';
import { tasksRepository } from './tasks.repository.js';

type EventSubject = (typeof TaskSubjects)['taskCreated' | 'taskAssigned' | 'taskCompleted' | 'taskExpired'];

/** Marks of delivered outcomes are written together, at most this long after the publish. */
const MARK_DELAY_MS = 20;

/** A publish's result: on the queue, or not with why; `permanent` when NATS refused it for good (too large). */
export type Delivery = { delivered: true } | { delivered: false; error: string; permanent: boolean };

export function outcomeOf(row: TaskRow): TaskOutcomeItem {
  const fail = row.status === 'expired' && row.on_expiry === 'fail';
  return {
    taskId: row.id,
    executionId: row.execution_id!,
    stepPath: row.step_path!,
    status: row.status === 'expired' ? 'expired' : 'completed',
    decision: fail ? null : row.decision,
    data: row.data ?? {},
    completedBy: row.completed_by,
    completedAt: (row.completed_at ?? new Date()).toISOString(),
    failure: fail ? `The task '${row.title}' expired: its deadline passed without a decision` : null,
  };
}

/** An agent approval's outcome for the AI runtime: the decision and form data, or expired (whatever the policy). */
export function agentOutcomeOf(row: TaskRow): AgentApprovalOutcomeItem {
  return {
    taskId: row.id,
    agentRunId: row.agent_run_id!,
    toolCallId: row.tool_call_id!,
    status: row.status === 'completed' || row.status === 'expired' ? row.status : 'cancelled',
    decision: row.status === 'completed' ? row.decision : null,
    data: row.data ?? {},
    completedBy: row.completed_by,
    completedAt: (row.completed_at ?? new Date()).toISOString(),
  };
}

const tenantOf = (row: TaskRow): TenantContext => ({ tenantId: row.tenant_id, environmentId: row.environment_id, scopeId: row.scope_id });

/**
 * After a commit: a decided task's outcome goes to the run service's durable queue, or for an
 * agent run's approval to the AI runtime's (JetStream, message id per task, so a second publish
 * is dropped) and the flag in the row is cleared; a
 * publish that fails leaves the flag for the outbox reconciler. Facts go out as core NATS events.
 */
@Injectable()
export class OutcomePublisher implements OnModuleDestroy {
  private readonly logger = new Logger(OutcomePublisher.name);
  private marks: { tenantId: string; id: string }[] = [];
  private flushing?: NodeJS.Timeout;

  constructor(
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    private readonly bus: Bus,
    private readonly system: SystemDb,
  ) {}

  /** Publishes the outcome; never throws. */
  async deliver(row: TaskRow): Promise<Delivery> {
    try {
      // Tenant-wide: a task assigned to a customer is in that customer's scope, its execution may not be.
      const context = messageContext({ ...tenantOf(row), scopeId: null });
      if (row.agent_run_id) await enqueueWork(this.nc, TaskSubjects.agentOutcomes, agentOutcomeOf(row), `task-outcome:${row.id}`, context);
      else await enqueueWork(this.nc, TaskSubjects.outcomes, outcomeOf(row), `task-outcome:${row.id}`, context);
    } catch (error) {
      const failure = publishFailure(error);
      this.logger.warn(
        `outcome of task ${row.id} not published (${failure.permanent ? 'refused: the reconciler records it' : 'the reconciler retries'}): ${failure.error}`,
      );
      return { delivered: false, ...failure };
    }
    this.marks.push({ tenantId: row.tenant_id, id: row.id });
    this.flushing ??= setTimeout(() => void this.flush(), MARK_DELAY_MS);
    return { delivered: true };
  }

  emit(subject: EventSubject, row: TaskRow): void {
    this.bus.emit(subject, toTaskEvent(row), messageContext(tenantOf(row)));
  }

  async onModuleDestroy(): Promise<void> {
    clearTimeout(this.flushing);
    await this.flush();
  }

  private async flush(): Promise<void> {
    this.flushing = undefined;
    const tasks = this.marks.splice(0, this.marks.length);
    if (!tasks.length) return;
    await this.system
      .run('task outbox: outcomes delivered', (m) => tasksRepository.outcomeDelivered(m, tasks), 'debug')
      .catch((error: unknown) => this.logger.warn(`could not mark ${tasks.length} outcomes delivered: ${(error as Error).message}`));
  }
}
