import type { EntityManager } from 'typeorm';
import { execute, prepared, type TenantContext, type TenantDb } from '@platform/db';
import { usageOutboxJson, type PendingUsage } from '@platform/service';
import type {
  Claim,
  ClaimedExecution,
  ExecutionRow,
  FinishedAhead,
  LogLine,
  Settlement,
  StepCommit,
  StepRecord,
  WaitingStepEnd,
  WaitingStepResolution,
} from '../engine/execution.records.js';

const EXECUTION_COLUMNS = `tenant_id, environment_id, id, scope_id, workflow_id, workflow_version, status, input, output, error, trigger_type, trigger_id,
  parent_execution_id, parent_step_path, idempotency_key, request_hash, created_at, started_at, finished_at, timeout_at, wake_at, request_id`;
/** pg would turn a top-level array into a PostgreSQL array; jsonb parameters go as JSON text. */
const json = (value: unknown): string | null => (value === undefined || value === null ? null : JSON.stringify(value));

const STEP_COLUMNS = 'id, path, step_id, type, status, attempt, input, output, error, wake_at, started_at, finished_at';

/** What a start writes; the tenant, environment and scope come from the context. */
export interface NewStart {
  id: string;
  workflowId: string;
  /** The input as JSON text: the starter has serialised it already to check its size. */
  inputJson: string;
  triggerType: string;
  triggerId: string | null;
  parentExecutionId: string | null;
  parentStepPath: string | null;
  idempotencyKey: string | null;
  requestHash: string | null;
  /** Used when the workflow's settings give no timeout_seconds. */
  defaultTimeoutSeconds: number;
  /** The request that started the run: every run of it works in that request's context. */
  requestId: string;
  /** The run's usage fact, written with the row (usage outbox); null when the start is not metered. */
  usage: PendingUsage | null;
}

// The two hot writes are database functions (migration EngineHotPath): one round trip each.
const START = prepared(
  'run.start_execution',
  `select ${EXECUTION_COLUMNS} from run.start_execution($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)`,
);

/** A start whose run its worker has already finished (pure-runs.ts): the row is born settled. */
const START_FINISHED = prepared(
  'run.start_finished',
  `select ${EXECUTION_COLUMNS} from run.start_finished($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23)`,
);

/** Several such starts of one tenant context in one statement and one commit (sql/start_finished_batch.sql). */
const START_FINISHED_BATCH = prepared('run.start_finished_batch', `select ${EXECUTION_COLUMNS} from run.start_finished_batch($1, $2, $3, $4, $5)`);

/** One start of a batch: what startFinished takes. */
export interface FinishedStart {
  start: NewStart;
  claim: Claim;
  run: FinishedAhead;
}

/** One start_finished call's parameters, by name, as JSON text (the input is JSON text already): one element of a batch. */
export function finishedStartJson({ start: e, claim, run }: FinishedStart): string {
  const fields = {
    id: e.id,
    workflow: e.workflowId,
    trigger_type: e.triggerType,
    trigger_id: e.triggerId,
    parent: e.parentExecutionId,
    parent_path: e.parentStepPath,
    idempotency_key: e.idempotencyKey,
    request_hash: e.requestHash,
    default_timeout_seconds: e.defaultTimeoutSeconds,
    worker: claim.worker,
    lease_seconds: claim.leaseMs / 1000,
    request_id: e.requestId,
    usage: e.usage ? usageOutboxJson(e.usage) : null,
    version: run.version,
    started_at: run.startedAt,
    steps: run.steps ?? null,
    logs: run.logs ?? null,
    settle: settlementJson(run.settle),
  };
  return `{"input":${e.inputJson},${JSON.stringify(fields).slice(1)}`;
}

/**
 * What recording a human task's outcome on its step found: done now, too early (the step not yet
 * waiting), or done before; and, when it was done now by a worker that asked, the execution claimed.
 */
const COMMIT_STEP = prepared('run.commit_step', `select run.commit_step($1, $2, $3, $4, $5, $6, $7, $8, $9) as owned`);

const RENEW_LEASE = prepared(
  'run.renew_lease',
  `update run.executions set lease_until = now() + make_interval(secs => $4) where tenant_id = $1 and id = $2 and lease_owner = $3`,
);

const STEPS = prepared('run.steps', `select ${STEP_COLUMNS} from run.execution_steps where execution_id = $1 order by id`);

/** The columns of the `claimed` execution a function answers, as the row's own (`<alias>` names the function call). */
const claimedColumns = (alias: string) =>
  EXECUTION_COLUMNS.split(',')
    .map((c) => `(${alias}.claimed).${c.trim()}`)
    .join(', ');
const CLAIM = prepared(
  'run.claim_execution',
  `select ${claimedColumns('c')}, c.prior_status as previous_status, c.step_records from run.claim_execution($1, $2, $3, $4, $5, $6, $7) c`,
);

const RESOLVE_TASK_STEP = prepared(
  'run.resolve_task_step',
  `select r.state as resolution, r.scope_id as resolution_scope_id, r.request_id as resolution_request_id, ${claimedColumns('r')}, r.prior_status as previous_status, r.step_records
     from run.resolve_task_step($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) r`,
);

type ClaimedRow = ExecutionRow & { previous_status: string; step_records: StepJson[] | null };

/** A step record as JSON (run.claim_execution): its times as text. */
type StepJson = Omit<StepRecord, 'wake_at' | 'started_at' | 'finished_at'> & { wake_at: string | null; started_at: string; finished_at: string | null };

const stepFromJson = (s: StepJson): StepRecord => ({
  ...s,
  wake_at: s.wake_at === null ? null : new Date(s.wake_at),
  started_at: new Date(s.started_at),
  finished_at: s.finished_at === null ? null : new Date(s.finished_at),
});

function claimedOf(row: ClaimedRow): ClaimedExecution {
  const { step_records, ...execution } = row;
  return step_records ? { ...execution, records: step_records.map(stepFromJson) } : execution;
}

/** A settlement as run.commit_step takes it. */
const settlementJson = (s: Settlement) => ({ status: s.status, output: s.output ?? null, error: s.error ?? null, wake_at: s.wakeAt ?? null });

function startValues(e: NewStart, claim: Claim | null): unknown[] {
  return [
    e.id,
    e.workflowId,
    e.inputJson,
    e.triggerType,
    e.triggerId,
    e.parentExecutionId,
    e.parentStepPath,
    e.idempotencyKey,
    e.requestHash,
    e.defaultTimeoutSeconds,
    claim?.worker ?? null,
    (claim?.leaseMs ?? 0) / 1000,
    e.requestId,
    e.usage ? JSON.stringify(usageOutboxJson(e.usage)) : null,
  ];
}

export const executionsRepository = {
  /**
   * A waiting step's end (a task's outcome, a child's end), in one round trip (sql/resolve_task_step.sql);
   * with `claim`, the execution it wakes is claimed for that worker in the same statement.
   */
  async resolveTaskStep(db: TenantDb, ctx: TenantContext, r: WaitingStepEnd, claim: Claim | null): Promise<WaitingStepResolution | undefined> {
    type Row = ClaimedRow & { resolution: WaitingStepResolution['state']; resolution_scope_id: string | null; resolution_request_id: string | null };
    const [row] = await db.call<Row>(ctx, RESOLVE_TASK_STEP, [
      r.executionId,
      r.stepPath,
      r.stepRowId,
      r.status,
      JSON.stringify(r.output),
      json(r.error),
      claim?.worker ?? null,
      (claim?.leaseMs ?? 0) / 1000,
    ]);
    if (!row) return undefined;
    const { resolution: state, resolution_scope_id: scope_id, resolution_request_id: request_id, ...claimed } = row;
    // Not claimed: every column of the execution is null.
    return claimed.id ? { state, scope_id, request_id, claimed: claimedOf(claimed) } : { state, scope_id, request_id };
  },

  /**
   * A start in one round trip, in its own transaction: the row is made from the workflow's current
   * version only if the workflow exists and is active (undefined otherwise). With `claim`, the row
   * is born running under that worker's lease.
   */
  async start(db: TenantDb, ctx: TenantContext, e: NewStart, claim: Claim | null): Promise<ExecutionRow | undefined> {
    return (await db.call<ExecutionRow>(ctx, START, startValues(e, claim)))[0];
  },

  /**
   * A start with its run already done by the claiming worker (sql/start_finished.sql), in one round
   * trip: the row comes back settled, or running under the claim when another version is current.
   */
  async startFinished(db: TenantDb, ctx: TenantContext, e: NewStart, claim: Claim, run: FinishedAhead): Promise<ExecutionRow | undefined> {
    const values = [...startValues(e, claim), run.version, run.startedAt, json(run.steps), json(run.logs), json(settlementJson(run.settle))];
    return (await db.call<ExecutionRow>(ctx, START_FINISHED, values))[0];
  },

  /**
   * Starts like startFinished, of one tenant context, in one round trip and one transaction: the
   * rows written (or running under their claim), each found by its id; a refused start has none.
   * Each start is given as its finishedStartJson.
   */
  async startFinishedBatch(db: TenantDb, ctx: TenantContext, elements: string[]): Promise<ExecutionRow[]> {
    return db.call<ExecutionRow>(ctx, START_FINISHED_BATCH, [`[${elements.join(',')}]`]);
  },

  /** The same start inside a transaction of the caller's (the Idempotency-Key path). */
  async startIn(m: EntityManager, ctx: TenantContext, e: NewStart, claim: Claim | null): Promise<ExecutionRow | undefined> {
    return (await execute<ExecutionRow>(m, START, [ctx.tenantId, ctx.environmentId, ctx.scopeId ?? null, false, ...startValues(e, claim)])).rows[0];
  },

  /** The caller's own use of a key: a tenant-wide caller sees its customers' runs, but not their keys. */
  async byIdempotencyKey(m: EntityManager, key: string, scopeId: string | null): Promise<ExecutionRow | undefined> {
    const rows = await m.query<ExecutionRow[]>(
      `select ${EXECUTION_COLUMNS} from run.executions where idempotency_key = $1 and scope_id is not distinct from $2::uuid`,
      [key, scopeId],
    );
    return rows[0];
  },

  /** An idempotency key older than 24 h is released, so the same key may start a new run. */
  async releaseIdempotencyKey(m: EntityManager, id: string): Promise<void> {
    await m.query(`update run.executions set idempotency_key = null where id = $1`, [id]);
  },

  async get(m: EntityManager, id: string): Promise<ExecutionRow | undefined> {
    return (await m.query<ExecutionRow[]>(`select ${EXECUTION_COLUMNS} from run.executions where id = $1`, [id]))[0];
  },

  async list(
    m: EntityManager,
    f: { afterId?: string; workflowId?: string; status?: string; triggerType?: string; from?: Date; to?: Date; limit: number },
  ): Promise<ExecutionRow[]> {
    return await m.query<ExecutionRow[]>(
      `select ${EXECUTION_COLUMNS} from run.executions
        where ($1::uuid is null or id < $1) and ($2::uuid is null or workflow_id = $2) and ($3::text is null or status = $3)
          and ($4::text is null or trigger_type = $4) and ($5::timestamptz is null or created_at >= $5) and ($6::timestamptz is null or created_at <= $6)
        order by id desc limit $7`,
      [f.afterId ?? null, f.workflowId ?? null, f.status ?? null, f.triggerType ?? null, f.from ?? null, f.to ?? null, f.limit + 1],
    );
  },

  async steps(m: EntityManager, executionId: string): Promise<StepRecord[]> {
    return (await execute<StepRecord>(m, STEPS, [executionId])).rows;
  },

  async logs(m: EntityManager, executionId: string, f: { afterId?: string; level?: string; stepId?: string; limit: number }): Promise<LogLine[]> {
    return await m.query<LogLine[]>(
      `select id, step_id, level, message, data, created_at from run.execution_logs
        where execution_id = $1 and ($2::uuid is null or id > $2) and ($3::text is null or level = $3) and ($4::text is null or step_id = $4)
        order by id limit $5`,
      [executionId, f.afterId ?? null, f.level ?? null, f.stepId ?? null, f.limit + 1],
    );
  },

  /**
   * Takes an execution that is due (queued, waiting and woken, or running with an expired lease)
   * in one round trip; says what it was and, unless it was queued, what earlier runs recorded.
   */
  async claim(db: TenantDb, ctx: TenantContext, id: string, claim: Claim): Promise<ClaimedExecution | undefined> {
    // Committed asynchronously: were PostgreSQL itself to crash and lose the claim, the lease
    // would simply be taken again (a crash of this service loses nothing).
    const rows = await db.call<ClaimedRow>(ctx, CLAIM, [id, claim.worker, claim.leaseMs / 1000], { asyncCommit: true });
    return rows[0] ? claimedOf(rows[0]) : undefined;
  },

  async renewLease(m: EntityManager, tenantId: string, id: string, claim: Claim): Promise<boolean> {
    const { rowCount } = await execute(m, RENEW_LEASE, [tenantId, id, claim.worker, claim.leaseMs / 1000]);
    return rowCount > 0;
  },

  /**
   * Commits a step record (if any), the log lines gathered with it and, with `settle`, the
   * execution's new state, in one round trip and only while the worker owns the execution: false
   * when it no longer does. A duplicate success (a redelivered step) is dropped with its logs.
   */
  async commitStep(db: TenantDb, ctx: TenantContext, executionId: string, worker: string, commit: StepCommit): Promise<boolean> {
    const settle = commit.settle ? settlementJson(commit.settle) : null;
    const rows = await db.call<{ owned: boolean }>(
      ctx,
      COMMIT_STEP,
      [executionId, worker, json(commit.steps.length ? commit.steps : null), json(commit.logs), json(settle)],
      {
        asyncCommit: true,
      },
    );
    return rows[0]?.owned === true;
  },

  /** Cancel from outside a worker: final at once for queued or waiting runs; a running one is taken from its worker. */
  async cancel(m: EntityManager, id: string): Promise<ExecutionRow | undefined> {
    const [rows] = await m.query<[ExecutionRow[], number]>(
      `update run.executions set status = 'cancelled', finished_at = now(), lease_owner = null, lease_until = null, wake_at = null,
              error = jsonb_build_object('code', 'cancelled', 'message', 'Cancelled on request', 'step_id', null)
        where id = $1 and status in ('queued', 'running', 'waiting')
        returning ${EXECUTION_COLUMNS}`,
      [id],
    );
    return rows[0];
  },
};
