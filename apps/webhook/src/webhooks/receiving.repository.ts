import { prepared, TenantDb, type TenantContext } from '@platform/db';
import type { DeliveryRow, WebhookRow } from './webhook.record.js';
import type { NewDelivery } from './webhooks.repository.js';

const FIND = prepared('webhook.find_webhook', `select * from webhook.find_webhook($1, $2, $3, $4, $5)`);
const RECORD = prepared(
  'webhook.record_delivery',
  `select * from webhook.record_delivery($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)`,
);
const RECORD_START = prepared('webhook.record_start', `select webhook.record_start($1, $2, $3, $4, $5, $6, $7)`);

/**
 * The receiving route's queries: one round trip each, through the functions of the
 * WebhookHotPath migration (they set the tenant context themselves; RLS applies).
 */
export const receivingRepository = {
  async find(db: TenantDb, ctx: TenantContext, id: string): Promise<WebhookRow | undefined> {
    return (await db.call<WebhookRow>(ctx, FIND, [id]))[0];
  },

  /** The delivery recorded, or for a duplicate key the first delivery (its id is not `d.id`). */
  async record(db: TenantDb, ctx: TenantContext, d: NewDelivery, duplicateId: string): Promise<DeliveryRow> {
    const rows = await db.call<DeliveryRow>(ctx, RECORD, [
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
    ]);
    return rows[0];
  },

  /** Asynchronous commit: a lost record is redone by the reconciler, whose start is idempotent. */
  async recordStart(db: TenantDb, ctx: TenantContext, id: string, runId: string | null, error: string | null, asyncCommit: boolean): Promise<void> {
    await db.call(ctx, RECORD_START, [id, runId, error], { asyncCommit });
  },
};
