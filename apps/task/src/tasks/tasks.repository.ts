import type { EntityManager } from 'typeorm';
import { prepared, tenantFunctionValues, type TenantContext, type TenantDb } from '@platform/db';
import { HUMAN_TASK_TYPES, type CreateTaskItem, type TaskDecision, type TaskStatus } from '@platform/messaging';
import { assigneeColumns, decisionsOf, type AssigneeType, type TaskRow } from './task.record.js';

const COLUMNS = `tenant_id, environment_id, scope_id, id, type, status, title, description, execution_id, workflow_id, workflow_name, step_id, step_path,
  agent_run_id, agent_id, tool_call_id, assignee_type, assignee_id, form, context, due_at, on_expiry, escalated, decision, data, completed_by, completed_at, outcome_pending,
  outcome_attempts, outcome_error, outcome_failed_at, checked_at, created_at, updated_at`;

const json = (v: unknown) => (v === null || v === undefined ? null : JSON.stringify(v));

export interface TaskFilter {
  status: TaskStatus;
  assigneeId?: string;
  workflowId?: string;
  executionId?: string;
  agentRunId?: string;
  dueBefore?: string;
  afterId: string | null;
  limit: number;
}

/** A publish of a task's outcome that failed; `permanent` when NATS refused it for good. */
export interface OutcomeFailure {
  tenantId: string;
  id: string;
  error: string;
  permanent: boolean;
}

export interface OutcomeFailureRecord {
  tenant_id: string;
  id: string;
  outcome_attempts: number;
  outcome_error: string;
  given_up: boolean;
}

export interface LinkRow {
  id: string;
  task_id: string;
  decisions: TaskDecision[];
  expires_at: Date;
  used_at: Date | null;
}

const FIND_TASK = prepared('task.find_task', `select * from task.find_task($1, $2, $3, $4, $5)`);
const CANCEL_FOR_EXECUTION = prepared('task.cancel_for_execution', `select * from task.cancel_for_execution($1, $2, $3, $4, $5)`);
const COMPLETE_PLAIN_TASK = prepared('task.complete_plain_task', `select * from task.complete_plain_task($1, $2, $3, $4, $5, $6, $7, $8, $9)`);
const COMPLETE_TASK = prepared('task.complete_task', `select * from task.complete_task($1, $2, $3, $4, $5, $6, $7, $8)`);

/** The decisions each task type takes (decisionsOf), as task.complete_plain_task checks them. */
const DECISIONS_BY_TYPE = JSON.stringify(Object.fromEntries(HUMAN_TASK_TYPES.map((type) => [type, decisionsOf(type)])));

/** The API's completion path: one round trip each (tenant functions, sql/*.sql). */
export const hotPath = {
  /** The execution ended: its open tasks are cancelled (nothing to deliver: nobody waits). */
  async cancelForExecution(db: TenantDb, ctx: TenantContext, executionId: string): Promise<TaskRow[]> {
    return db.call<TaskRow>(ctx, CANCEL_FOR_EXECUTION, [executionId]);
  },

  async find(db: TenantDb, ctx: TenantContext, id: string): Promise<TaskRow | undefined> {
    return (await db.call<TaskRow>(ctx, FIND_TASK, [id]))[0];
  },

  /**
   * For a caller allowed whoever the assignee (a tenant key): completes a pending task without a
   * form with a decision its type takes, in one round trip; undefined otherwise (check and explain).
   */
  async completePlain(
    db: TenantDb,
    ctx: TenantContext,
    id: string,
    c: { decision: TaskDecision; data: Record<string, unknown>; completedBy: string },
  ): Promise<TaskRow | undefined> {
    return (await db.call<TaskRow>(ctx, COMPLETE_PLAIN_TASK, [id, c.decision, JSON.stringify(c.data), c.completedBy, DECISIONS_BY_TYPE]))[0];
  },

  /**
   * Undefined when the task is no longer pending (another completion won): the condition on status
   * makes two concurrent completions record one. With `m`, inside that transaction (a signed
   * link's single use is checked in it); the same function either way (sql/complete_task.sql).
   */
  async complete(
    db: TenantDb,
    ctx: TenantContext,
    id: string,
    c: { decision: TaskDecision; data: Record<string, unknown>; completedBy: string },
    m?: EntityManager,
  ): Promise<TaskRow | undefined> {
    const values = [id, c.decision, JSON.stringify(c.data), c.completedBy];
    if (!m) return (await db.call<TaskRow>(ctx, COMPLETE_TASK, values))[0];
    const rows = await m.query<TaskRow[]>(COMPLETE_TASK.text, tenantFunctionValues(ctx, values));
    return rows[0];
  },
};

/** Every query on task.tasks and task.task_links; managers come from TenantDb (RLS) unless named SystemDb. */
export const tasksRepository = {
  /** Pending tasks (of one customer when given): RLS's tenant and environment as index conditions of `tasks_list`. */
  async countOpen(m: EntityManager, customerId: string | null): Promise<number> {
    const rows = await m.query<{ open: number }[]>(
      `select count(*)::int as open from task.tasks
        where tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid
          and environment_id = nullif(current_setting('app.env_id', true), '')::uuid
          and status = 'pending' and ($1::uuid is null or scope_id = $1)`,
      [customerId],
    );
    return rows[0].open;
  },

  /**
   * Undefined when the task of this execution and path (or agent run and tool call) exists
   * already: the run service or the AI runtime asked twice.
   */
  async insert(
    m: EntityManager,
    t: { tenantId: string; environmentId: string; scopeId: string | null; id: string },
    item: CreateTaskItem,
  ): Promise<TaskRow | undefined> {
    const assignee = assigneeColumns(item.assignee);
    const agent = item.agentRun;
    const rows = await m.query<TaskRow[]>(
      `insert into task.tasks (tenant_id, environment_id, scope_id, id, type, status, title, description, execution_id, workflow_id, workflow_name, step_id, step_path,
                               assignee_type, assignee_id, form, context, due_at, on_expiry, agent_run_id, agent_id, tool_call_id)
       values ($1, $2, $3, $4, $5, 'pending', $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21)
       on conflict do nothing
       returning ${COLUMNS}`,
      [
        t.tenantId,
        t.environmentId,
        t.scopeId,
        t.id,
        item.type,
        item.title,
        item.description ?? null,
        agent ? null : item.executionId,
        agent ? null : item.workflowId,
        item.workflowName ?? '',
        agent ? null : item.stepId,
        agent ? null : item.stepPath,
        assignee?.type ?? null,
        assignee?.id ?? null,
        json(item.form),
        json(item.context),
        item.dueAt ?? null,
        json(item.onExpiry),
        agent?.agentRunId ?? null,
        agent?.agentId ?? null,
        agent?.toolCallId ?? null,
      ],
    );
    return rows[0];
  },

  async get(m: EntityManager, id: string, forUpdate = false): Promise<TaskRow | undefined> {
    const rows = await m.query<TaskRow[]>(`select ${COLUMNS} from task.tasks where id = $1 ${forUpdate ? 'for update' : ''}`, [id]);
    return rows[0];
  },

  async list(m: EntityManager, f: TaskFilter): Promise<TaskRow[]> {
    return m.query<TaskRow[]>(
      `select ${COLUMNS} from task.tasks
        where status = $1 and ($2::uuid is null or id > $2) and ($3::uuid is null or assignee_id = $3) and ($4::uuid is null or workflow_id = $4)
          and ($5::uuid is null or execution_id = $5) and ($6::timestamptz is null or due_at < $6) and ($8::uuid is null or agent_run_id = $8)
        order by id limit $7`,
      [f.status, f.afterId, f.assigneeId ?? null, f.workflowId ?? null, f.executionId ?? null, f.dueBefore ?? null, f.limit + 1, f.agentRunId ?? null],
    );
  },

  async assign(m: EntityManager, id: string, type: AssigneeType, assigneeId: string): Promise<TaskRow | undefined> {
    const [rows] = await m.query<[TaskRow[], number]>(
      `update task.tasks set assignee_type = $2, assignee_id = $3, updated_at = now() where id = $1 and status = 'pending' returning ${COLUMNS}`,
      [id, type, assigneeId],
    );
    return rows[0];
  },

  /** The outcomes are on the run service's queue (by primary key: the ids alone would be a scan of every tenant's tasks). */
  async outcomeDelivered(m: EntityManager, tasks: { tenantId: string; id: string }[]): Promise<void> {
    await m.query(
      `update task.tasks t set outcome_pending = false from unnest($1::uuid[], $2::uuid[]) as d(tenant_id, id)
        where t.tenant_id = d.tenant_id and t.id = d.id and t.outcome_pending`,
      [tasks.map((t) => t.tenantId), tasks.map((t) => t.id)],
    );
  },

  /** SystemDb: decided tasks whose outcome has not reached the queue after `graceMs` (the outbox reconciler). */
  async undelivered(m: EntityManager, graceMs: number, limit: number): Promise<TaskRow[]> {
    return m.query<TaskRow[]>(
      `select ${COLUMNS} from task.tasks where outcome_pending and completed_at < now() - make_interval(secs => $1::float8 / 1000) order by completed_at limit $2`,
      [graceMs, limit],
    );
  },

  /**
   * SystemDb: outcomes the reconciler could not publish. Each counts an attempt and keeps its error;
   * one refused for good (`permanent`), or decided more than `giveUpMs` ago, is given up: failed
   * now, its flag cleared (out of the scan), the row kept. Answers every row written, `given_up`
   * for those (once: a given-up row has no flag for a second call to match).
   */
  async outcomeFailed(m: EntityManager, failures: OutcomeFailure[], giveUpMs: number): Promise<OutcomeFailureRecord[]> {
    if (!failures.length) return [];
    const [rows] = await m.query<[OutcomeFailureRecord[], number]>(
      `with f as (
         select f.*, f.permanent or t.completed_at < now() - make_interval(secs => $5::float8 / 1000) as given_up
           from unnest($1::uuid[], $2::uuid[], $3::text[], $4::boolean[]) as f(tenant_id, id, error, permanent)
           join task.tasks t on t.tenant_id = f.tenant_id and t.id = f.id)
       update task.tasks t
          set outcome_attempts = t.outcome_attempts + 1, outcome_error = f.error,
              outcome_failed_at = case when f.given_up then now() end, outcome_pending = not f.given_up
         from f
        where t.tenant_id = f.tenant_id and t.id = f.id and t.outcome_pending
        returning t.tenant_id, t.id, t.outcome_attempts, t.outcome_error, f.given_up`,
      [failures.map((f) => f.tenantId), failures.map((f) => f.id), failures.map((f) => f.error), failures.map((f) => f.permanent), giveUpMs],
    );
    return rows;
  },

  /**
   * SystemDb, in the expiry transaction: pending tasks past their deadline, locked. SKIP LOCKED
   * gives each replica other rows; the status change in the same transaction makes it once.
   */
  async lockDue(m: EntityManager, limit: number): Promise<TaskRow[]> {
    return m.query<TaskRow[]>(
      `select ${COLUMNS} from task.tasks where status = 'pending' and due_at <= now() order by due_at limit $1 for update skip locked`,
      [limit],
    );
  },

  /**
   * SystemDb: pending tasks whose execution was not checked for `ageMs`, marked checked now; SKIP
   * LOCKED gives each replica other rows. The watch asks the run service whether they still wait.
   */
  async claimUnchecked(m: EntityManager, ageMs: number, limit: number): Promise<TaskRow[]> {
    const [rows] = await m.query<[TaskRow[], number]>(
      `update task.tasks set checked_at = now() where (tenant_id, id) in (
         select tenant_id, id from task.tasks where status = 'pending' and execution_id is not null and coalesce(checked_at, created_at) < now() - make_interval(secs => $1::float8 / 1000)
          order by coalesce(checked_at, created_at) limit $2 for update skip locked)
       returning ${COLUMNS}`,
      [ageMs, limit],
    );
    return rows;
  },

  /** SystemDb: the deadline passed with `reject` or `fail`. */
  async expire(m: EntityManager, tenantId: string, id: string, decision: TaskDecision | null): Promise<TaskRow> {
    const [rows] = await m.query<[TaskRow[], number]>(
      `update task.tasks set status = 'expired', decision = $3, data = '{}', completed_at = now(), outcome_pending = true, updated_at = now()
        where tenant_id = $1 and id = $2 returning ${COLUMNS}`,
      [tenantId, id, decision],
    );
    return rows[0];
  },

  /** SystemDb: escalation reassigns and extends the deadline, once. */
  async escalate(m: EntityManager, tenantId: string, id: string, type: AssigneeType, assigneeId: string, extendSeconds: number): Promise<TaskRow> {
    const [rows] = await m.query<[TaskRow[], number]>(
      `update task.tasks set assignee_type = $3, assignee_id = $4, due_at = now() + make_interval(secs => $5::float8), escalated = true, updated_at = now()
        where tenant_id = $1 and id = $2 returning ${COLUMNS}`,
      [tenantId, id, type, assigneeId, extendSeconds],
    );
    return rows[0];
  },
};

export const linksRepository = {
  async insert(
    m: EntityManager,
    l: {
      tenantId: string;
      environmentId: string;
      scopeId: string | null;
      id: string;
      taskId: string;
      decisions: TaskDecision[];
      expiresAt: Date;
      createdBy: string;
    },
  ): Promise<void> {
    await m.query(
      `insert into task.task_links (tenant_id, environment_id, scope_id, id, task_id, decisions, expires_at, created_by) values ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [l.tenantId, l.environmentId, l.scopeId, l.id, l.taskId, l.decisions, l.expiresAt, l.createdBy],
    );
  },

  async get(m: EntityManager, id: string, forUpdate = false): Promise<LinkRow | undefined> {
    const rows = await m.query<LinkRow[]>(
      `select id, task_id, decisions, expires_at, used_at from task.task_links where id = $1 ${forUpdate ? 'for update' : ''}`,
      [id],
    );
    return rows[0];
  },

  async use(m: EntityManager, id: string): Promise<boolean> {
    const [rows] = await m.query<[{ id: string }[], number]>(`update task.task_links set used_at = now() where id = $1 and used_at is null returning id`, [id]);
    return rows.length > 0;
  },
};
