import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { TenantContext } from '@platform/db';
import type { TaskStatus } from '@platform/messaging';
import type { TaskRow } from '../src/tasks/task.record.js';

/**
 * Rows for the task service's store-tier tests, arranged and read back as the admin (no RLS), so
 * what a function wrote is checked on the table itself and not through the function's answer.
 */
export interface TaskArrangement {
  status?: TaskStatus;
  type?: 'approval' | 'form';
  form?: Record<string, unknown> | null;
  executionId?: string;
  stepPath?: string;
  dueAt?: 'past' | 'future';
  outcomePending?: boolean;
  /** Completed (or checked) this long ago, in seconds. */
  completedAgo?: number;
  createdAgo?: number;
  agent?: boolean;
}

export async function arrangeTask(admin: pg.Client, ctx: TenantContext, t: TaskArrangement = {}): Promise<string> {
  const id = randomUUID();
  const status = t.status ?? 'pending';
  const done = status === 'completed' || status === 'expired';
  await admin.query(
    `insert into task.tasks (tenant_id, environment_id, scope_id, id, type, status, title, execution_id, workflow_id, step_id, step_path,
                             agent_run_id, agent_id, tool_call_id, form, due_at, decision, data, completed_by, completed_at, outcome_pending, created_at, updated_at)
     values ($1, $2, $3, $4, $5, $6, 'Check it', $7, $8, $9, $10, $11, $12, $13, $14,
             case $15::text when 'past' then now() - interval '1 minute' when 'future' then now() + interval '1 hour' end,
             $16, $17, $18, case when $19::boolean then now() - make_interval(secs => $20) end, $21,
             now() - make_interval(secs => $22), now() - interval '1 hour')`,
    [
      ctx.tenantId,
      ctx.environmentId,
      ctx.scopeId ?? null,
      id,
      t.type ?? 'approval',
      status,
      t.agent ? null : (t.executionId ?? randomUUID()),
      t.agent ? null : randomUUID(),
      t.agent ? null : 'ask',
      t.agent ? null : (t.stepPath ?? 'ask'),
      t.agent ? randomUUID() : null,
      t.agent ? randomUUID() : null,
      t.agent ? 'call-1' : null,
      t.form ? JSON.stringify(t.form) : null,
      t.dueAt ?? null,
      done ? 'approve' : null,
      done ? JSON.stringify({ first: true }) : null,
      done ? 'user:first' : null,
      done,
      t.completedAgo ?? 0,
      t.outcomePending ?? false,
      t.createdAgo ?? 0,
    ],
  );
  return id;
}

export async function readTask(admin: pg.Client, id: string): Promise<TaskRow | undefined> {
  return (await admin.query<TaskRow>(`select * from task.tasks where id = $1`, [id])).rows[0];
}

export async function countTasks(admin: pg.Client, tenantId: string): Promise<number> {
  return (await admin.query<{ n: number }>(`select count(*)::int as n from task.tasks where tenant_id = $1`, [tenantId])).rows[0].n;
}

/** A tenant other than the test's own, in the same database. */
export const otherTenant = (): TenantContext => ({ tenantId: randomUUID(), environmentId: randomUUID() });

/** A form a submission must satisfy: CompletionService checks it, so the one-statement path leaves such tasks alone. */
export const FORM = { type: 'object', properties: { amount: { type: 'number' } }, required: ['amount'] };
