import { Injectable } from '@nestjs/common';
import type { Principal } from '@platform/auth';
import { ValidationFailedError, decodeCursor, newId, toPage, type Page } from '@platform/common';
import { TenantDb, type TenantContext } from '@platform/db';
import { TaskSubjects, type CreateTaskItem } from '@platform/messaging';
import { DirectoryClient } from './directory.client.js';
import { OutcomePublisher } from './outcome-publisher.js';
import { toTaskResponse, type TaskResponse } from './task.record.js';
import { TaskErrors } from './tasks.errors.js';
import { hotPath, tasksRepository } from './tasks.repository.js';
import type { ListTasksQueryDto } from './dto/task-query.dto.js';
import type { AssignTaskRequestDto } from './dto/task.request.dto.js';

/** Human tasks of a tenant environment: made for the run service, listed, read and assigned. */
@Injectable()
export class TasksService {
  constructor(
    private readonly db: TenantDb,
    private readonly directory: DirectoryClient,
    private readonly publisher: OutcomePublisher,
  ) {}

  /**
   * The run service asks for a step's task, the AI runtime for an agent's tool call approval (a
   * queue item in the tenant). A task assigned to a customer belongs to that customer's scope, so
   * its customer keys see it.
   */
  async create(ctx: TenantContext, item: CreateTaskItem): Promise<void> {
    const scopeId = item.assignee?.customer_id ?? ctx.scopeId ?? null;
    const row = await this.db.run({ ...ctx, scopeId: null }, (m) =>
      tasksRepository.insert(m, { tenantId: ctx.tenantId, environmentId: ctx.environmentId, scopeId, id: item.taskId ?? newId() }, item),
    );
    if (row) this.publisher.emit(TaskSubjects.taskCreated, row);
  }

  async list(p: Principal, q: ListTasksQueryDto): Promise<Page<TaskResponse>> {
    const after = decodeCursor(q.cursor, { id: 'uuid' });
    const rows = await this.db.run(p, (m) =>
      tasksRepository.list(m, {
        status: q.status,
        assigneeId: q.assignee === 'me' ? p.subject : q.assignee,
        workflowId: q.workflow_id,
        executionId: q.execution_id,
        agentRunId: q.agent_run_id,
        dueBefore: q.due_before,
        afterId: after?.id ?? null,
        limit: q.limit,
      }),
    );
    return toPage(rows, q.limit, toTaskResponse, (r) => ({ id: r.id }));
  }

  async get(p: Principal, id: string): Promise<TaskResponse> {
    const row = await this.db.run(p, (m) => tasksRepository.get(m, id));
    if (!row) throw TaskErrors.notFound();
    return toTaskResponse(row);
  }

  /** To a user who is a member of the tenant, or to one of its teams; customer keys cannot reassign. */
  async assign(p: Principal, id: string, dto: AssignTaskRequestDto): Promise<TaskResponse> {
    if (!!dto.user_id === !!dto.team_id) {
      throw new ValidationFailedError([{ field: 'user_id', message: 'give exactly one of user_id or team_id' }]);
    }
    const current = await this.db.run(p, (m) => tasksRepository.get(m, id));
    if (!current) throw TaskErrors.notFound();
    if (p.kind === 'customer_key') throw TaskErrors.notAssignee();
    if (current.status !== 'pending') throw TaskErrors.notOpen(current.status);
    const known = await this.directory.check(p, dto.user_id ? { userId: dto.user_id } : { teamId: dto.team_id });
    if (!known) throw dto.user_id ? TaskErrors.unknownAssignee('user_id', 'a user') : TaskErrors.unknownAssignee('team_id', 'a team');
    const row = await this.db.run(p, (m) => tasksRepository.assign(m, id, dto.user_id ? 'user' : 'team', (dto.user_id ?? dto.team_id)!));
    if (!row) throw TaskErrors.notOpen('completed');
    this.publisher.emit(TaskSubjects.taskAssigned, row);
    return toTaskResponse(row);
  }

  /** The execution ended (any final status): its open tasks are cancelled. */
  async cancelForExecution(ctx: TenantContext, executionId: string): Promise<number> {
    const rows = await hotPath.cancelForExecution(this.db, { ...ctx, scopeId: null }, executionId);
    return rows.length;
  }
}
