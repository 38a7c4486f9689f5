import { prepared, TenantDb, type TenantContext } from '@platform/db';
import type { DeliveryRow, WebhookRow } from './webhook.record.js';

/** One delivery to write, verified against the webhook at `version`. */
export interface DeliveryWrite {
  version: string;
  delivery: NewDelivery;
  /** The id of the duplicate's own log entry, should the delivery turn out a duplicate. */
  duplicateId: string;
}

/** What recording a delivery answers: enough to reply, not the stored request. */
export type RecordedDelivery = Pick<DeliveryRow, 'id' | 'outcome' | 'run_id' | 'started_at' | 'start_error'>;
import type { NewDelivery } from './webhooks.repository.js';

const FIND = prepared('webhook.find_webhook', `select * from webhook.find_webhook($1, $2, $3, $4, $5)`);
const RECORD_MANY = prepared(
  'webhook.record_deliveries',
  `select * from webhook.record_deliveries($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20)`,
);
const RECORD_STARTS = prepared('webhook.record_starts', `select webhook.record_starts($1, $2, $3, $4, $5, $6)`);
const RECORD_START_FAILURES = prepared('webhook.record_start_failures', `select webhook.record_start_failures($1, $2, $3, $4, $5, $6, $7)`);

/**
 * The receiving route's queries: one round trip each, through the functions of the
 * WebhookHotPath and DeferredRunStarts migrations and sql/ (they set the tenant context themselves; RLS applies).
 */
export const receivingRepository = {
  async find(db: TenantDb, ctx: TenantContext, id: string): Promise<WebhookRow | undefined> {
    return (await db.call<WebhookRow>(ctx, FIND, [id]))[0];
  },

  /**
   * Deliveries of one tenant environment in one statement. For each item (by index) the delivery
   * recorded, or for a duplicate key the first delivery (its id is not the item's); no row for an
   * item whose webhook is gone, disabled or no longer at its version.
   */
  async recordMany(db: TenantDb, ctx: TenantContext, items: DeliveryWrite[]): Promise<Map<number, RecordedDelivery>> {
    const column = <T>(pick: (w: DeliveryWrite) => T) => items.map(pick);
    const rows = await db.call<RecordedDelivery & { idx: number }>({ ...ctx, scopeId: null }, RECORD_MANY, [
      column((w) => w.version),
      column((w) => w.delivery.id),
      column((w) => w.duplicateId),
      column((w) => w.delivery.webhookId),
      column((w) => w.delivery.workflowId),
      column((w) => w.delivery.scopeId),
      column((w) => w.delivery.method),
      column((w) => JSON.stringify(w.delivery.headers)),
      column((w) => w.delivery.body),
      column((w) => w.delivery.contentType),
      column((w) => w.delivery.outcome),
      column((w) => w.delivery.reason),
      column((w) => w.delivery.statusCode),
      column((w) => w.delivery.dedupeKey),
      column((w) => (w.delivery.runInput === null ? null : JSON.stringify(w.delivery.runInput))),
      column((w) => w.delivery.runId),
    ]);
    return new Map(rows.map(({ idx, ...row }) => [idx - 1, row]));
  },

  /**
   * Started runs (a null error) and runs that can never start (the error), in one statement.
   * Asynchronous commit: a lost record is redone by the reconciler, whose start is idempotent.
   */
  async recordStarts(db: TenantDb, ctx: TenantContext, results: { id: string; error: string | null }[]): Promise<void> {
    await db.call(ctx, RECORD_STARTS, [results.map((r) => r.id), results.map((r) => r.error)], { asyncCommit: true });
  },

  /** Failed attempts that count: the one reaching `maxAttempts` records the error, and the retries end. */
  async recordStartFailures(db: TenantDb, ctx: TenantContext, failures: { id: string; error: string }[], maxAttempts: number): Promise<void> {
    await db.call(ctx, RECORD_START_FAILURES, [failures.map((f) => f.id), failures.map((f) => f.error), maxAttempts]);
  },
};
