import { prepared, TenantDb, type TenantContext } from '@platform/db';
import type { DeliveryRow, WebhookRow } from './webhook.record.js';

/** What recording a delivery answers: enough to reply, not the stored request. */
export type RecordedDelivery = Pick<DeliveryRow, 'id' | 'outcome' | 'run_id' | 'started_at' | 'start_error'>;
import type { NewDelivery } from './webhooks.repository.js';

const FIND = prepared('webhook.find_webhook', `select * from webhook.find_webhook($1, $2, $3, $4, $5)`);
const RECORD = prepared(
  'webhook.record_delivery',
  `select * from webhook.record_delivery($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20)`,
);
const RECORD_STARTS = prepared('webhook.record_starts', `select webhook.record_starts($1, $2, $3, $4, $5, $6)`);

/**
 * The receiving route's queries: one round trip each, through the functions of the
 * WebhookHotPath and DeferredRunStarts migrations (they set the tenant context themselves; RLS applies).
 */
export const receivingRepository = {
  async find(db: TenantDb, ctx: TenantContext, id: string): Promise<WebhookRow | undefined> {
    return (await db.call<WebhookRow>(ctx, FIND, [id]))[0];
  },

  /**
   * The delivery recorded, or for a duplicate key the first delivery (its id is not `d.id`);
   * undefined when the webhook is gone, disabled or no longer at `version`.
   */
  async record(db: TenantDb, ctx: TenantContext, version: string, d: NewDelivery, duplicateId: string): Promise<RecordedDelivery | undefined> {
    const rows = await db.call<RecordedDelivery>(ctx, RECORD, [
      version,
      d.id,
      duplicateId,
      d.webhookId,
      d.workflowId,
      d.scopeId,
      d.method,
      JSON.stringify(d.headers),
      d.body,
      d.contentType,
      d.outcome,
      d.reason,
      d.statusCode,
      d.dedupeKey,
      d.runInput === null ? null : JSON.stringify(d.runInput),
      d.runId,
    ]);
    return rows[0];
  },

  /**
   * Started runs (a null error) and runs that can never start (the error), in one statement.
   * Asynchronous commit: a lost record is redone by the reconciler, whose start is idempotent.
   */
  async recordStarts(db: TenantDb, ctx: TenantContext, results: { id: string; error: string | null }[]): Promise<void> {
    await db.call(ctx, RECORD_STARTS, [results.map((r) => r.id), results.map((r) => r.error)], { asyncCommit: true });
  },
};
