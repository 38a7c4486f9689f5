import type { EntityManager } from 'typeorm';
import { prepared, type TenantContext, type TenantDb } from '@platform/db';
import type { TriggerFiringStatus } from '@platform/messaging';
import type { TriggerExecutionRow, TriggerRow } from './trigger.record.js';

const TRIGGER_COLUMNS = `tenant_id, environment_id, scope_id, id, name, workflow_id, type, enabled, input, cron, interval_seconds, timezone, start_at, end_at, misfire, event_type, event_filter, webhook_id, next_fire_at, created_at, updated_at`;
const EXECUTION_COLUMNS = `tenant_id, environment_id, scope_id, id, trigger_id, workflow_id, fire_key, scheduled_for, fired_at, run_input, run_id, status, error`;

/** The writable fields of a trigger, as stored. */
export interface TriggerFields {
  name: string;
  workflowId: string;
  type: string;
  enabled: boolean;
  input: Record<string, unknown> | string | null;
  cron: string | null;
  intervalSeconds: number | null;
  timezone: string | null;
  startAt: Date | null;
  endAt: Date | null;
  misfire: string | null;
  eventType: string | null;
  eventFilter: string | null;
  webhookId: string | null;
  nextFireAt: Date | null;
}

export interface NewExecution {
  tenantId: string;
  environmentId: string;
  scopeId: string | null;
  id: string;
  triggerId: string;
  workflowId: string;
  fireKey: string;
  scheduledFor: Date;
  runInput: Record<string, unknown> | null;
  status: TriggerFiringStatus;
  error: string | null;
  /**
   * The instant the firing was decided (the scheduler plans with it, and gives it to the run's
   * input); the transaction's start otherwise. The scheduler's own clock reading comes after its
   * lock wait, so the transaction's start would record a missed tick as fired earlier than it was.
   */
  firedAt?: Date;
}

const fieldValues = (f: TriggerFields) => [
  f.name,
  f.workflowId,
  f.type,
  f.enabled,
  f.input === null ? null : JSON.stringify(f.input),
  f.cron,
  f.intervalSeconds,
  f.timezone,
  f.startAt,
  f.endAt,
  f.misfire,
  f.eventType,
  f.eventFilter,
  f.webhookId,
  f.nextFireAt,
];

/** Every query on trigger.triggers and trigger.executions; TenantDb managers unless a method says SystemDb. */
const LISTENERS = prepared('trigger.listeners', `select event_type, webhook_id from trigger.listeners($1, $2, $3, $4)`);

export const triggersRepository = {
  /** The event types and webhooks the tenant's enabled triggers listen for: one round trip (sql/listeners.sql). */
  async listeners(db: TenantDb, ctx: TenantContext): Promise<Array<{ event_type: string | null; webhook_id: string | null }>> {
    return db.call<{ event_type: string | null; webhook_id: string | null }>(ctx, LISTENERS, []);
  },

  async insert(
    m: EntityManager,
    owner: { tenantId: string; environmentId: string; scopeId: string | null; id: string },
    f: TriggerFields,
  ): Promise<TriggerRow> {
    const rows = await m.query<TriggerRow[]>(
      `insert into trigger.triggers (tenant_id, environment_id, scope_id, id, name, workflow_id, type, enabled, input, cron, interval_seconds, timezone, start_at, end_at, misfire, event_type, event_filter, webhook_id, next_fire_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19) returning ${TRIGGER_COLUMNS}`,
      [owner.tenantId, owner.environmentId, owner.scopeId, owner.id, ...fieldValues(f)],
    );
    return rows[0];
  },

  async replace(m: EntityManager, id: string, f: TriggerFields): Promise<TriggerRow | undefined> {
    const [rows] = await m.query<[TriggerRow[], number]>(
      `update trigger.triggers set name = $2, workflow_id = $3, type = $4, enabled = $5, input = $6, cron = $7, interval_seconds = $8, timezone = $9,
         start_at = $10, end_at = $11, misfire = $12, event_type = $13, event_filter = $14, webhook_id = $15, next_fire_at = $16, updated_at = now()
       where id = $1 returning ${TRIGGER_COLUMNS}`,
      [id, ...fieldValues(f)],
    );
    return rows[0];
  },

  async list(m: EntityManager, f: { type?: string; enabled?: boolean; workflowId?: string; afterId: string | null; limit: number }): Promise<TriggerRow[]> {
    return m.query<TriggerRow[]>(
      `select ${TRIGGER_COLUMNS} from trigger.triggers
        where ($1::uuid is null or id > $1) and ($2::text is null or type = $2) and ($3::boolean is null or enabled = $3) and ($4::uuid is null or workflow_id = $4)
        order by id limit $5`,
      [f.afterId, f.type ?? null, f.enabled ?? null, f.workflowId ?? null, f.limit + 1],
    );
  },

  async get(m: EntityManager, id: string, forUpdate = false): Promise<TriggerRow | undefined> {
    const rows = await m.query<TriggerRow[]>(`select ${TRIGGER_COLUMNS} from trigger.triggers where id = $1 ${forUpdate ? 'for update' : ''}`, [id]);
    return rows[0];
  },

  async delete(m: EntityManager, id: string): Promise<boolean> {
    const [rows] = await m.query<[{ id: string }[], number]>(`delete from trigger.triggers where id = $1 returning id`, [id]);
    return rows.length > 0;
  },

  /**
   * SystemDb: due schedules of every tenant, locked. SKIP LOCKED lets replicas share the work;
   * a row being disabled (locked by the update) is skipped, and seen disabled on the next pass.
   */
  async lockDue(m: EntityManager, limit: number): Promise<TriggerRow[]> {
    return m.query<TriggerRow[]>(
      `select ${TRIGGER_COLUMNS} from trigger.triggers
        where type = 'schedule' and enabled and next_fire_at <= now()
        order by next_fire_at limit $1 for update skip locked`,
      [limit],
    );
  },

  /** SystemDb, inside the claim transaction. */
  async setNextFire(m: EntityManager, tenantId: string, id: string, next: Date | null): Promise<void> {
    await m.query(`update trigger.triggers set next_fire_at = $3 where tenant_id = $1 and id = $2`, [tenantId, id, next]);
  },

  /** TenantDb: enabled event triggers of the event's tenant for one event type. */
  async eventTriggers(m: EntityManager, eventType: string): Promise<TriggerRow[]> {
    return m.query<TriggerRow[]>(`select ${TRIGGER_COLUMNS} from trigger.triggers where type = 'event' and enabled and event_type = $1`, [eventType]);
  },

  async webhookTriggers(m: EntityManager, webhookId: string): Promise<TriggerRow[]> {
    return m.query<TriggerRow[]>(`select ${TRIGGER_COLUMNS} from trigger.triggers where type = 'webhook' and enabled and webhook_id = $1`, [webhookId]);
  },
};

export const executionsRepository = {
  /** The claim: undefined when this firing was claimed already (another replica, a redelivery). */
  async claim(m: EntityManager, e: NewExecution): Promise<TriggerExecutionRow | undefined> {
    const rows = await m.query<TriggerExecutionRow[]>(
      `insert into trigger.executions (tenant_id, environment_id, scope_id, id, trigger_id, workflow_id, fire_key, scheduled_for, run_input, status, error, fired_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, coalesce($12::timestamptz, now()))
       on conflict (tenant_id, trigger_id, fire_key) do nothing returning ${EXECUTION_COLUMNS}`,
      [
        e.tenantId,
        e.environmentId,
        e.scopeId,
        e.id,
        e.triggerId,
        e.workflowId,
        e.fireKey,
        e.scheduledFor,
        e.runInput === null ? null : JSON.stringify(e.runInput),
        e.status,
        e.error,
        e.firedAt ?? null,
      ],
    );
    return rows[0];
  },

  async list(m: EntityManager, triggerId: string, f: { status?: string; beforeId: string | null; limit: number }): Promise<TriggerExecutionRow[]> {
    return m.query<TriggerExecutionRow[]>(
      `select ${EXECUTION_COLUMNS} from trigger.executions
        where trigger_id = $1 and ($2::uuid is null or id < $2) and ($3::text is null or status = $3)
        order by id desc limit $4`,
      [triggerId, f.beforeId, f.status ?? null, f.limit + 1],
    );
  },

  async recordStart(m: EntityManager, id: string, runId: string | null, status: TriggerFiringStatus, error: string | null): Promise<void> {
    await m.query(`update trigger.executions set run_id = coalesce($2, run_id), status = $3, error = $4, attempts = attempts + 1 where id = $1`, [
      id,
      runId,
      status,
      error,
    ]);
  },

  /**
   * A start that failed and counts (the run service failed on it, or it could not be sent): the
   * attempt reaching `maxAttempts` records the firing as failed with the error. Only a pending firing.
   */
  async recordFailedAttempt(m: EntityManager, id: string, error: string, maxAttempts: number): Promise<void> {
    await m.query(
      `update trigger.executions
          set attempts = attempts + 1,
              status = case when attempts + 1 >= $3 then 'failed' else status end,
              error = case when attempts + 1 >= $3 then format('run not started after %s attempts: %s', attempts + 1, $2::text) else error end
        where id = $1 and status = 'pending'`,
      [id, error, maxAttempts],
    );
  },

  /** SystemDb: claims pending for `maxAgeMs` are recorded as failed (the reconciler stops trying them). Answers how many. */
  async giveUpPending(m: EntityManager, maxAgeMs: number, reason: string): Promise<number> {
    // TypeORM answers an UPDATE with [rows, count], not the rows: rows.length was always 2.
    const [, count] = await m.query<[{ id: string }[], number]>(
      `update trigger.executions set status = 'failed', error = $2
        where status = 'pending' and fired_at < now() - make_interval(secs => $1::float8 / 1000)
        returning id`,
      [maxAgeMs, reason],
    );
    return count;
  },

  /** SystemDb: claims whose run was not started (a crash after the claim, the run service down). */
  async stalePending(m: EntityManager, olderThanMs: number, limit: number): Promise<TriggerExecutionRow[]> {
    return m.query<TriggerExecutionRow[]>(
      `select ${EXECUTION_COLUMNS} from trigger.executions
        where status = 'pending' and fired_at < now() - make_interval(secs => $1::float8 / 1000)
        order by fired_at limit $2 for update skip locked`,
      [olderThanMs, limit],
    );
  },
};
