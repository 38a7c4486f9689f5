import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { TenantContext } from '@platform/db';
import { pendingUsage } from '@platform/service';
import type { NewStart } from '../src/executions/executions.repository.js';

/**
 * Rows for the run service's store-tier tests, arranged and read back as the admin (no RLS), so
 * what a function wrote is checked on the table itself and not through the function's answer.
 */
export type ExecutionState = 'queued' | 'running' | 'waiting' | 'succeeded' | 'failed' | 'cancelled' | 'timed_out';

export const FINISHED: ExecutionState[] = ['succeeded', 'failed', 'cancelled', 'timed_out'];

export interface ExecutionDbRow {
  id: string;
  tenant_id: string;
  scope_id: string | null;
  workflow_id: string;
  workflow_version: number;
  status: ExecutionState;
  output: unknown;
  error: { code: string } | null;
  idempotency_key: string | null;
  request_id: string | null;
  started_at: Date | null;
  finished_at: Date | null;
  timeout_at: Date;
  wake_at: Date | null;
  lease_owner: string | null;
  lease_until: Date | null;
  created_at: Date;
}

export interface StepDbRow {
  id: string;
  path: string;
  step_id: string;
  type: string;
  status: string;
  attempt: number;
  input: unknown;
  output: unknown;
  error: unknown;
  scope_id: string | null;
  started_at: Date;
  finished_at: Date | null;
}

/** An active workflow at version 2 (version 1 is older), with `settings` in its current definition. */
export async function arrangeWorkflow(
  admin: pg.Client,
  ctx: TenantContext,
  o: { status?: 'active' | 'disabled'; deleted?: boolean; settings?: Record<string, unknown> } = {},
): Promise<string> {
  const id = randomUUID();
  await admin.query(
    `insert into run.workflows (tenant_id, environment_id, id, name, status, current_version, deleted_at) values ($1, $2, $3, 'w', $4, 2, $5)`,
    [ctx.tenantId, ctx.environmentId, id, o.status ?? 'active', o.deleted ? new Date() : null],
  );
  for (const version of [1, 2])
    await admin.query(
      `insert into run.workflow_versions (tenant_id, environment_id, workflow_id, version, definition, name, status) values ($1, $2, $3, $4, $5, 'w', 'active')`,
      [
        ctx.tenantId,
        ctx.environmentId,
        id,
        version,
        JSON.stringify({ steps: [{ id: 'a', type: 'transform' }], settings: version === 2 ? (o.settings ?? {}) : { timeout_seconds: 1 } }),
      ],
    );
  return id;
}

/**
 * An execution in `status`: running ones hold `worker`'s lease (expired with `leaseExpired`),
 * waiting ones are due when `wake` is 'past', finished ones have finished_at.
 */
export async function arrangeExecution(
  admin: pg.Client,
  ctx: TenantContext,
  status: ExecutionState,
  o: { worker?: string; leaseExpired?: boolean; wake?: 'past' | 'future' | null; timeoutPast?: boolean; workflowId?: string } = {},
): Promise<string> {
  const workflowId = o.workflowId ?? (await arrangeWorkflow(admin, ctx));
  const id = randomUUID();
  const running = status === 'running';
  const wake = status === 'waiting' && o.wake ? (o.wake === 'past' ? '-1 minute' : '1 hour') : null;
  await admin.query(
    `insert into run.executions (tenant_id, environment_id, id, scope_id, workflow_id, workflow_version, status, input, trigger_type, timeout_at, request_id,
            started_at, finished_at, wake_at, lease_owner, lease_until)
     values ($1, $2, $3::uuid, $4, $5, 2, $6, '{}', 'api', now() + ($7::text)::interval, 'req-' || $3::uuid::text,
            case when $6 = 'queued' then null else now() - interval '1 minute' end,
            case when $6 in ('succeeded', 'failed', 'cancelled', 'timed_out') then now() - interval '1 second' end,
            now() + ($8::text)::interval, $9, case when $9::text is null then null else now() + ($10::text)::interval end)`,
    [
      ctx.tenantId,
      ctx.environmentId,
      id,
      ctx.scopeId ?? null,
      workflowId,
      status,
      o.timeoutPast ? '-1 second' : '1 hour',
      wake,
      running ? (o.worker ?? 'worker-a') : null,
      o.leaseExpired ? '-1 second' : '30 seconds',
    ],
  );
  return id;
}

/** A step row of an execution, as a worker would have committed it. */
export async function arrangeStep(
  admin: pg.Client,
  ctx: TenantContext,
  executionId: string,
  s: { path: string; status: string; type?: string; attempt?: number; input?: unknown; output?: unknown; startedAt?: Date },
): Promise<string> {
  const id = randomUUID();
  await admin.query(
    `insert into run.execution_steps (tenant_id, environment_id, id, scope_id, execution_id, path, step_id, type, status, attempt, output, input, started_at, finished_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, coalesce($13, now()), case when $9 = 'waiting' then null else now() end)`,
    [
      ctx.tenantId,
      ctx.environmentId,
      id,
      ctx.scopeId ?? null,
      executionId,
      s.path,
      s.path.split('/').pop(),
      s.type ?? 'approval',
      s.status,
      s.attempt ?? 1,
      s.output === undefined ? null : JSON.stringify(s.output),
      s.input === undefined ? null : JSON.stringify(s.input),
      s.startedAt ?? null,
    ],
  );
  return id;
}

export async function readExecution(admin: pg.Client, id: string): Promise<ExecutionDbRow | undefined> {
  return (await admin.query<ExecutionDbRow>(`select * from run.executions where id = $1`, [id])).rows[0];
}

export async function readSteps(admin: pg.Client, executionId: string): Promise<StepDbRow[]> {
  return (
    await admin.query<StepDbRow>(`select * from run.execution_steps where execution_id = $1 order by started_at, finished_at nulls first, id`, [executionId])
  ).rows;
}

export async function readLogs(admin: pg.Client, executionId: string): Promise<{ message: string; step_id: string | null }[]> {
  return (await admin.query<{ message: string; step_id: string | null }>(`select * from run.execution_logs where execution_id = $1 order by id`, [executionId]))
    .rows;
}

/** Everything a test's tenant holds, to show a refused call wrote nothing. */
export async function countRows(admin: pg.Client, tenantId: string): Promise<{ executions: number; steps: number; logs: number; usage: number }> {
  const { rows } = await admin.query<{ executions: number; steps: number; logs: number; usage: number }>(
    `select (select count(*)::int from run.executions where tenant_id = $1) as executions,
            (select count(*)::int from run.execution_steps where tenant_id = $1) as steps,
            (select count(*)::int from run.execution_logs where tenant_id = $1) as logs,
            (select count(*)::int from run.usage_outbox where tenant_id = $1) as usage`,
    [tenantId],
  );
  return rows[0];
}

/** A tenant other than the test's own, in the same database. */
export const otherTenant = (): TenantContext => ({ tenantId: randomUUID(), environmentId: randomUUID() });

/** A metered API start of `workflowId` as the store takes it, request id `req-start`; `o` overrides any part. */
export function newStart(ctx: TenantContext, workflowId: string, o: Partial<NewStart> = {}): NewStart {
  return {
    id: randomUUID(),
    workflowId,
    inputJson: '{"n":1}',
    triggerType: 'api',
    triggerId: null,
    parentExecutionId: null,
    parentStepPath: null,
    idempotencyKey: null,
    requestHash: null,
    defaultTimeoutSeconds: 600,
    requestId: 'req-start',
    usage: pendingUsage(ctx, { metric: 'runs', quantity: 1, eventId: randomUUID() }, { requestId: 'req-start' }),
    ...o,
  };
}
