import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { SystemDb } from '@platform/db';
import { TaskSubjects } from '@platform/messaging';
import { PeriodicJob } from '@platform/service';
import { TASK_CONFIG, type TaskConfig } from '../config/task.config.js';
import { OutcomePublisher } from './outcome-publisher.js';
import { assigneeColumns, type TaskRow } from './task.record.js';
import { tasksRepository } from './tasks.repository.js';

const BATCH = 100;

export type ExpiryAction =
  { kind: 'escalate'; to: NonNullable<ReturnType<typeof assigneeColumns>>; extendSeconds: number } | { kind: 'reject' } | { kind: 'fail' };

/** What the deadline does to a task: `fail`, `reject` (also the default), or escalate once (the next deadline rejects). */
export function expiryAction(task: Pick<TaskRow, 'on_expiry' | 'escalated'>): ExpiryAction {
  const policy = task.on_expiry;
  if (policy === 'fail') return { kind: 'fail' };
  if (policy && typeof policy === 'object' && !task.escalated) {
    const to = assigneeColumns(policy.escalate_to);
    if (to) return { kind: 'escalate', to, extendSeconds: policy.extend_seconds };
  }
  return { kind: 'reject' };
}

/**
 * The deadline reconciler, on every replica: each pass locks due pending tasks of every tenant
 * (FOR UPDATE SKIP LOCKED: replicas take different rows) and changes them in the same
 * transaction, so each deadline fires once however many replicas run, and a deadline that passed
 * while no replica ran fires at the first pass after start. After the commit: outcomes to the
 * run service's queue (the outbox reconciler covers a failed publish) and the events.
 */
@Injectable()
export class ExpiryJob extends PeriodicJob {
  constructor(
    private readonly system: SystemDb,
    private readonly publisher: OutcomePublisher,
    @Inject(TASK_CONFIG) config: TaskConfig,
  ) {
    super({ name: 'ExpiryJob', intervalMs: config.TASK_EXPIRY_INTERVAL_MS, runAtStart: true });
  }

  protected async pass(): Promise<void> {
    for (;;) {
      const { expired, escalated, seen } = await this.system.run('task deadlines: due tasks of every tenant', (m) => this.fire(m), 'debug');
      for (const row of expired) {
        await this.publisher.deliver(row);
        this.publisher.emit(TaskSubjects.taskExpired, row);
      }
      for (const row of escalated) this.publisher.emit(TaskSubjects.taskAssigned, row);
      if (seen < BATCH) return;
    }
  }

  private async fire(m: EntityManager): Promise<{ expired: TaskRow[]; escalated: TaskRow[]; seen: number }> {
    const due = await tasksRepository.lockDue(m, BATCH);
    const expired: TaskRow[] = [];
    const escalated: TaskRow[] = [];
    for (const task of due) {
      const action = expiryAction(task);
      if (action.kind === 'escalate')
        escalated.push(await tasksRepository.escalate(m, task.tenant_id, task.id, action.to.type, action.to.id, action.extendSeconds));
      else expired.push(await tasksRepository.expire(m, task.tenant_id, task.id, action.kind === 'reject' ? 'reject' : null));
    }
    return { expired, escalated, seen: due.length };
  }
}
