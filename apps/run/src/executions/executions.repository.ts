import type { EntityManager } from 'typeorm';
import type { ExecutionError, ExecutionRow, ExecutionStatus, LogLine, StepRecord } from './execution.records.js';

const EXECUTION_COLUMNS = `tenant_id, environment_id, id, scope_id, workflow_id, workflow_version, status, input, output, error, trigger_type, trigger_id,
  parent_execution_id, parent_step_path, idempotency_key, request_hash, created_at, started_at, finished_at, timeout_at, wake_at`;
/** pg would turn a top-level array into a PostgreSQL array; jsonb parameters go as JSON text. */
const json = (value: unknown): string | null => (value === undefined || value === null ? null : JSON.stringify(value));

const STEP_COLUMNS = 'id, path, step_id, type, status, attempt, input, output, error, wake_at, started_at, finished_at';

export interface NewExecution {
  tenantId: string;
  environmentId: string;
  scopeId: string | null;
  id: string;
  workflowId: string;
  workflowVersion: number;
  input: Record<string, unknown>;
  triggerType: string;
  triggerId: string | null;
  parentExecutionId: string | null;
  parentStepPath: string | null;
  idempotencyKey: string | null;
  requestHash: string | null;
  timeoutSeconds: number;
}

export interface NewStepRecord extends Omit<StepRecord, 'finished_at' | 'started_at'> {
  started_at: Date;
  finished_at: Date | null;
}

/** The lease condition every write of a worker carries: it still owns a running execution. */
const OWNED = `exists (select 1 from run.executions e where e.tenant_id = $1 and e.id = $2 and e.status = 'running' and e.lease_owner = $3)`;

/**
 * A step record and the log lines gathered with it, written only while the worker owns the
 * execution ($1 tenant, $2 execution, $3 worker; see stepAndLogParams for the rest).
 */
const STEP_AND_LOGS = `step as (
         insert into run.execution_steps (tenant_id, environment_id, id, scope_id, execution_id, path, step_id, type, status, attempt, input, output, error, wake_at, started_at, finished_at)
         select $1, $4, $5, $6, $2, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17 where ${OWNED}
         on conflict (tenant_id, execution_id, path) where status in ('succeeded', 'skipped') do nothing
         returning id),
       logged as (
         insert into run.execution_logs (tenant_id, environment_id, scope_id, execution_id, id, step_id, level, message, data, created_at)
         select $1, $4, $6, $2, l.* from unnest($18::uuid[], $19::text[], $20::text[], $21::text[], $22::jsonb[], $23::timestamptz[]) as l
          where exists (select 1 from step))`;

function stepAndLogParams(ctx: { tenantId: string; environmentId: string; scopeId: string | null }, executionId: string, worker: string, r: NewStepRecord, logs: LogLine[]): unknown[] {
  return [
    ctx.tenantId, executionId, worker, ctx.environmentId, r.id, ctx.scopeId, r.path, r.step_id, r.type, r.status, r.attempt, json(r.input), json(r.output), json(r.error), r.wake_at, r.started_at, r.finished_at,
    logs.map((l) => l.id), logs.map((l) => l.step_id), logs.map((l) => l.level), logs.map((l) => l.message), logs.map((l) => (l.data === null ? null : JSON.stringify(l.data))), logs.map((l) => l.created_at),
  ];
}

export const executionsRepository = {
  async insert(m: EntityManager, e: NewExecution): Promise<ExecutionRow> {
    const rows = (await m.query(
      `insert into run.executions (tenant_id, environment_id, id, scope_id, workflow_id, workflow_version, status, input, trigger_type, trigger_id,
         parent_execution_id, parent_step_path, idempotency_key, request_hash, timeout_at)
       values ($1, $2, $3, $4, $5, $6, 'queued', $7, $8, $9, $10, $11, $12, $13, now() + make_interval(secs => $14))
       returning ${EXECUTION_COLUMNS}`,
      [e.tenantId, e.environmentId, e.id, e.scopeId, e.workflowId, e.workflowVersion, JSON.stringify(e.input), e.triggerType, e.triggerId, e.parentExecutionId, e.parentStepPath, e.idempotencyKey, e.requestHash, e.timeoutSeconds],
    )) as ExecutionRow[];
    return rows[0];
  },

  /**
   * One statement for the hot path of a start: the row is made from the workflow's current
   * version (and its timeout) only if the workflow exists and is active; undefined otherwise.
   */
  async insertFromWorkflow(m: EntityManager, e: Omit<NewExecution, 'workflowVersion' | 'timeoutSeconds'>, defaultTimeoutSeconds: number): Promise<ExecutionRow | undefined> {
    const rows = (await m.query(
      `insert into run.executions (tenant_id, environment_id, id, scope_id, workflow_id, workflow_version, status, input, trigger_type, trigger_id,
         parent_execution_id, parent_step_path, idempotency_key, request_hash, timeout_at)
       select $1, $2, $3, $4, w.id, w.current_version, 'queued', $6, $7, $8, $9, $10, $11, $12,
              now() + make_interval(secs => coalesce((v.definition -> 'settings' ->> 'timeout_seconds')::int, $13))
         from run.workflows w
         join run.workflow_versions v on v.tenant_id = w.tenant_id and v.workflow_id = w.id and v.version = w.current_version
        where w.id = $5 and w.deleted_at is null and w.status = 'active'
       returning ${EXECUTION_COLUMNS}`,
      [e.tenantId, e.environmentId, e.id, e.scopeId, e.workflowId, JSON.stringify(e.input), e.triggerType, e.triggerId, e.parentExecutionId, e.parentStepPath, e.idempotencyKey, e.requestHash, defaultTimeoutSeconds],
    )) as ExecutionRow[];
    return rows[0];
  },

  async byIdempotencyKey(m: EntityManager, key: string): Promise<ExecutionRow | undefined> {
    return ((await m.query(`select ${EXECUTION_COLUMNS} from run.executions where idempotency_key = $1`, [key])) as ExecutionRow[])[0];
  },

  /** An idempotency key older than 24 h is released, so the same key may start a new run. */
  async releaseIdempotencyKey(m: EntityManager, id: string): Promise<void> {
    await m.query(`update run.executions set idempotency_key = null where id = $1`, [id]);
  },

  async get(m: EntityManager, id: string): Promise<ExecutionRow | undefined> {
    return ((await m.query(`select ${EXECUTION_COLUMNS} from run.executions where id = $1`, [id])) as ExecutionRow[])[0];
  },

  async list(
    m: EntityManager,
    f: { afterId?: string; workflowId?: string; status?: string; triggerType?: string; from?: Date; to?: Date; limit: number },
  ): Promise<ExecutionRow[]> {
    return (await m.query(
      `select ${EXECUTION_COLUMNS} from run.executions
        where ($1::uuid is null or id < $1) and ($2::uuid is null or workflow_id = $2) and ($3::text is null or status = $3)
          and ($4::text is null or trigger_type = $4) and ($5::timestamptz is null or created_at >= $5) and ($6::timestamptz is null or created_at <= $6)
        order by id desc limit $7`,
      [f.afterId ?? null, f.workflowId ?? null, f.status ?? null, f.triggerType ?? null, f.from ?? null, f.to ?? null, f.limit + 1],
    )) as ExecutionRow[];
  },

  async steps(m: EntityManager, executionId: string): Promise<StepRecord[]> {
    return (await m.query(`select ${STEP_COLUMNS} from run.execution_steps where execution_id = $1 order by id`, [executionId])) as StepRecord[];
  },

  async logs(m: EntityManager, executionId: string, f: { afterId?: string; level?: string; stepId?: string; limit: number }): Promise<LogLine[]> {
    return (await m.query(
      `select id, step_id, level, message, data, created_at from run.execution_logs
        where execution_id = $1 and ($2::uuid is null or id > $2) and ($3::text is null or level = $3) and ($4::text is null or step_id = $4)
        order by id limit $5`,
      [executionId, f.afterId ?? null, f.level ?? null, f.stepId ?? null, f.limit + 1],
    )) as LogLine[];
  },

  /** Takes an execution that is due (queued, waiting and woken, or running with an expired lease); says what it was. */
  async claim(m: EntityManager, id: string, worker: string, leaseMs: number): Promise<(ExecutionRow & { previous_status: string }) | undefined> {
    // The subquery reads the status before this update (a locking CTE would read nothing once the
    // row is updated); the WHERE is re-checked on the locked row, so two workers never both claim.
    const cols = EXECUTION_COLUMNS.split(',').map((c) => `e.${c.trim()}`).join(', ');
    const rows = (await m.query(
      `update run.executions e set status = 'running', lease_owner = $2, lease_until = now() + make_interval(secs => $3), wake_at = null,
              started_at = coalesce(e.started_at, now())
         from (select tenant_id, id, status as previous_status from run.executions where id = $1) p
        where e.tenant_id = p.tenant_id and e.id = p.id
          and (e.status = 'queued' or (e.status = 'waiting' and e.wake_at <= now()) or (e.status = 'running' and e.lease_until < now()))
        returning ${cols}, p.previous_status`,
      [id, worker, leaseMs / 1000],
    )) as [(ExecutionRow & { previous_status: string })[], number];
    return rows[0][0];
  },

  async renewLease(m: EntityManager, tenantId: string, id: string, worker: string, leaseMs: number): Promise<boolean> {
    const [, count] = (await m.query(
      `update run.executions set lease_until = now() + make_interval(secs => $4) where tenant_id = $1 and id = $2 and status = 'running' and lease_owner = $3`,
      [tenantId, id, worker, leaseMs / 1000],
    )) as [unknown, number];
    return count > 0;
  },

  /**
   * Writes a step record, and the log lines gathered since the last one, in one statement, only
   * while the worker owns the execution; false if it no longer does.
   */
  async recordStep(m: EntityManager, ctx: { tenantId: string; environmentId: string; scopeId: string | null }, executionId: string, worker: string, r: NewStepRecord, logs: LogLine[] = []): Promise<boolean> {
    const rows = (await m.query(
      `with ${STEP_AND_LOGS}
       select id from step`,
      stepAndLogParams(ctx, executionId, worker, r, logs),
    )) as unknown[];
    if (rows.length) return true;
    // Nothing written: either the lease is gone, or a duplicate success (a redelivered step) was dropped.
    const owned = (await m.query(`select 1 where ${OWNED}`, [ctx.tenantId, executionId, worker])) as unknown[];
    return owned.length > 0;
  },

  async insertLogs(m: EntityManager, ctx: { tenantId: string; environmentId: string; scopeId: string | null }, executionId: string, logs: LogLine[]): Promise<void> {
    if (!logs.length) return;
    await m.query(
      `insert into run.execution_logs (tenant_id, environment_id, scope_id, execution_id, id, step_id, level, message, data, created_at)
       select $1, $2, $3, $4, * from unnest($5::uuid[], $6::text[], $7::text[], $8::text[], $9::jsonb[], $10::timestamptz[])`,
      [ctx.tenantId, ctx.environmentId, ctx.scopeId, executionId, logs.map((l) => l.id), logs.map((l) => l.step_id), logs.map((l) => l.level), logs.map((l) => l.message), logs.map((l) => (l.data === null ? null : JSON.stringify(l.data))), logs.map((l) => l.created_at)],
    );
  },

  /** Ends or parks an execution the worker owns; false when it no longer owns it (cancelled meanwhile). */
  async settle(
    m: EntityManager,
    tenantId: string,
    id: string,
    worker: string,
    outcome: { status: ExecutionStatus; output?: unknown; error?: ExecutionError | null; wakeAt?: Date | null },
  ): Promise<boolean> {
    const finished = ['succeeded', 'failed', 'cancelled', 'timed_out'].includes(outcome.status);
    const [, count] = (await m.query(
      `update run.executions set status = $4, output = $5, error = $6, wake_at = $7, lease_owner = null, lease_until = null,
              finished_at = case when $8::boolean then now() else null end
        where tenant_id = $1 and id = $2 and status = 'running' and lease_owner = $3`,
      [tenantId, id, worker, outcome.status, outcome.output === undefined ? null : JSON.stringify(outcome.output), outcome.error ?? null, outcome.wakeAt ?? null, finished],
    )) as [unknown, number];
    return count > 0;
  },

  /**
   * The last step's record, its logs and the settlement in one statement: the common end of a run,
   * one round trip instead of three. All of it happens only while the worker still owns the run.
   */
  async settleWithStep(
    m: EntityManager,
    ctx: { tenantId: string; environmentId: string; scopeId: string | null },
    executionId: string,
    worker: string,
    r: NewStepRecord,
    logs: LogLine[],
    outcome: { status: ExecutionStatus; output?: unknown; error?: ExecutionError | null },
  ): Promise<boolean> {
    const rows = (await m.query(
      `with ${STEP_AND_LOGS},
       settled as (
         update run.executions set status = $24, output = $25, error = $26, wake_at = null, lease_owner = null, lease_until = null, finished_at = now()
          where tenant_id = $1 and id = $2 and status = 'running' and lease_owner = $3
         returning 1)
       select count(*)::int as settled from settled`,
      [...stepAndLogParams(ctx, executionId, worker, r, logs), outcome.status, json(outcome.output), json(outcome.error)],
    )) as { settled: number }[];
    return rows[0]?.settled === 1;
  },

  /** Cancel from outside a worker: final at once for queued or waiting runs; a running one is taken from its worker. */
  async cancel(m: EntityManager, id: string): Promise<ExecutionRow | undefined> {
    const [rows] = (await m.query(
      `update run.executions set status = 'cancelled', finished_at = now(), lease_owner = null, lease_until = null, wake_at = null,
              error = jsonb_build_object('code', 'cancelled', 'message', 'Cancelled on request', 'step_id', null)
        where id = $1 and status in ('queued', 'running', 'waiting')
        returning ${EXECUTION_COLUMNS}`,
      [id],
    )) as [ExecutionRow[], number];
    return rows[0];
  },

  /** A waiting step finished from outside (approval, child execution): record it and wake the execution. */
  async resolveWaitingStep(
    m: EntityManager,
    ctx: { tenantId: string; environmentId: string; scopeId: string | null },
    executionId: string,
    path: string,
    record: { id: string; status: 'succeeded' | 'failed'; output: unknown; error: ExecutionError | null },
  ): Promise<boolean> {
    const waiting = (await m.query(
      `select step_id, type, attempt from run.execution_steps where execution_id = $1 and path = $2 and status = 'waiting' order by id desc limit 1`,
      [executionId, path],
    )) as { step_id: string; type: string; attempt: number }[];
    if (!waiting.length) return false;
    const [w] = waiting;
    await m.query(
      `insert into run.execution_steps (tenant_id, environment_id, id, scope_id, execution_id, path, step_id, type, status, attempt, output, error, started_at, finished_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, now(), now())
       on conflict (tenant_id, execution_id, path) where status in ('succeeded', 'skipped') do nothing`,
      [ctx.tenantId, ctx.environmentId, record.id, ctx.scopeId, executionId, path, w.step_id, w.type, record.status, w.attempt, JSON.stringify(record.output ?? null), record.error ? { ...record.error, final: true } : null],
    );
    await m.query(`update run.executions set wake_at = now() where id = $1 and status = 'waiting'`, [executionId]);
    return true;
  },
};

export function isFinished(status: ExecutionStatus): boolean {
  return status === 'succeeded' || status === 'failed' || status === 'cancelled' || status === 'timed_out';
}
