import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Principal } from '@platform/auth';
import { TenantDb, type TenantContext } from '@platform/db';
import { TaskSubjects, type TaskDecision } from '@platform/messaging';
import { completerOf, completionRule } from './completion-rule.js';
import { DirectoryClient } from './directory.client.js';
import { FormValidator } from './form-validator.js';
import { OutcomePublisher } from './outcome-publisher.js';
import { decisionsOf, toTaskResponse, type TaskResponse, type TaskRow } from './task.record.js';
import { TaskErrors } from './tasks.errors.js';
import { tasksRepository } from './tasks.repository.js';

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
  ) {}

  async complete(p: Principal, id: string, d: Decision): Promise<TaskResponse> {
    return this.decide(p, id, d, completerOf(p), async (_m, task) => {
      const rule = completionRule(p, task);
      const allowed = 'teamCheck' in rule ? await this.directory.check(p, { userId: p.subject, teamId: rule.teamCheck }) : rule.allowed;
      if (!allowed) throw TaskErrors.notAssignee();
    });
  }

  /** The shared path of a person's decision (a caller, or a signed link with its own checks in `before`). */
  async decide(ctx: TenantContext, id: string, d: Decision, completedBy: string, before: BeforeComplete): Promise<TaskResponse> {
    const data = d.data ?? {};
    const row = await this.db.run(ctx, async (m) => {
      const task = await tasksRepository.get(m, id);
      if (!task) throw TaskErrors.notFound();
      await before(m, task);
      if (task.status !== 'pending') throw TaskErrors.notOpen(task.status);
      if (!decisionsOf(task.type).includes(d.decision)) throw TaskErrors.wrongDecision(decisionsOf(task.type));
      if (task.form && d.decision !== 'reject') {
        const check = this.forms.check(task.form, data);
        if (!check.ok) throw 'details' in check ? TaskErrors.invalidData(check.details) : TaskErrors.invalidForm(check.invalidSchema);
      }
      const completed = await tasksRepository.complete(m, id, { decision: d.decision, data, completedBy });
      if (!completed) throw TaskErrors.completedMeanwhile();
      return completed;
    });
    await this.publisher.deliver(row);
    this.publisher.emit(TaskSubjects.taskCompleted, row);
    return toTaskResponse(row);
  }
}
