import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Principal } from '@platform/auth';
import { TenantDb, type TenantContext } from '@platform/db';
import { TaskSubjects, type TaskDecision } from '@platform/messaging';
import { TASK_CONFIG, type TaskConfig } from '../config/task.config.js';
import { completerOf, completionRule } from './completion-rule.js';
import { DirectoryClient } from './directory.client.js';
import { FormValidator } from './form-validator.js';
import { OutcomePublisher } from './outcome-publisher.js';
import { decisionsOf, toTaskResponse, type TaskResponse, type TaskRow } from './task.record.js';
import { TaskErrors } from './tasks.errors.js';
import { hotPath, tasksRepository } from './tasks.repository.js';

export interface Decision {
  decision: TaskDecision;
  data?: Record<string, unknown>;
}

/** Checks run inside the completing transaction, before the task changes (a link's single use). */
export type BeforeComplete = (m: EntityManager, task: TaskRow) => Promise<void>;

/**
 * Completing a task: who may, whether the task is still open, the decision and the data against
 * the form; then one conditional update (pending → completed) records it, so of two concurrent
 * completions exactly one succeeds and the other is 409. After the commit the outcome goes to the
 * run service's durable queue and `task.task.completed` is emitted.
 */
@Injectable()
export class CompletionService {
  constructor(
    private readonly db: TenantDb,
    private readonly forms: FormValidator,
    private readonly directory: DirectoryClient,
    private readonly publisher: OutcomePublisher,
    @Inject(TASK_CONFIG) private readonly config: TaskConfig,
  ) {}

  /**
   * Over the API: read, check, then the conditional update; one round trip each, no transaction
   * held across the checks. A tenant key deciding a task without a form tries the one-statement
   * path first; when it changes nothing, the usual path finds out why (or that another won).
   */
  async complete(p: Principal, id: string, d: Decision): Promise<TaskResponse> {
    this.assertFits(d);
    if (p.kind === 'tenant_key') {
      const done = await hotPath.completePlain(this.db, p, id, { decision: d.decision, data: d.data ?? {}, completedBy: completerOf(p) });
      if (done) return this.completed(done);
    }
    const task = await hotPath.find(this.db, p, id);
    if (!task) throw TaskErrors.notFound();
    const rule = completionRule(p, task);
    const allowed = 'teamCheck' in rule ? await this.directory.check(p, { userId: p.subject, teamId: rule.teamCheck }) : rule.allowed;
    if (!allowed) throw TaskErrors.notAssignee();
    const data = this.checked(task, d);
    const row = await hotPath.complete(this.db, p, id, { decision: d.decision, data, completedBy: completerOf(p) });
    if (!row) throw TaskErrors.completedMeanwhile();
    return this.completed(row);
  }

  /** A decision inside one transaction with the caller's own checks in `before` (a signed link's single use). */
  async decide(ctx: TenantContext, id: string, d: Decision, completedBy: string, before: BeforeComplete): Promise<TaskResponse> {
    this.assertFits(d);
    const row = await this.db.run(ctx, async (m) => {
      const task = await tasksRepository.get(m, id);
      if (!task) throw TaskErrors.notFound();
      await before(m, task);
      const data = this.checked(task, d);
      const completed = await hotPath.complete(this.db, ctx, id, { decision: d.decision, data, completedBy }, m);
      if (!completed) throw TaskErrors.completedMeanwhile();
      return completed;
    });
    return this.completed(row);
  }

  /** The outcome must fit one message to the run service: a decision too large for it is refused now, not retried forever. */
  private assertFits(d: Decision): void {
    if (!d.data) return;
    const size = Buffer.byteLength(JSON.stringify(d.data));
    if (size > this.config.TASK_DATA_LIMIT_BYTES) throw TaskErrors.dataTooLarge(size, this.config.TASK_DATA_LIMIT_BYTES);
  }

  /** Still open, a decision it takes, and the data against the form (a rejection is not checked). */
  private checked(task: TaskRow, d: Decision): Record<string, unknown> {
    const data = d.data ?? {};
    if (task.status !== 'pending') throw TaskErrors.notOpen(task.status);
    if (!decisionsOf(task.type).includes(d.decision)) throw TaskErrors.wrongDecision(decisionsOf(task.type));
    if (task.form && d.decision !== 'reject') {
      const check = this.forms.check(task.form, data);
      if (!check.ok) throw 'details' in check ? TaskErrors.invalidData(check.details) : TaskErrors.invalidForm(check.invalidSchema);
    }
    return data;
  }

  /**
   * After the commit: the outcome to the run service's queue, then the event. The answer does not
   * wait for the queue's acknowledgement: the decision is committed with its outbox flag, and a
   * publish that fails is retried by the outbox reconciler.
   */
  private completed(row: TaskRow): TaskResponse {
    void this.publisher.deliver(row);
    this.publisher.emit(TaskSubjects.taskCompleted, row);
    return toTaskResponse(row);
  }
}
