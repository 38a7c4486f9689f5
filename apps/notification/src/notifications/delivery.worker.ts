import { Inject, Injectable } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import { TenantBatcher, TenantDb, type TenantContext } from '@platform/db';
import {
  NATS_CONNECTION,
  NOTIFICATION_DELIVERY_QUEUE,
  QueueConsumer,
  hasTenant,
  retryDelayMs,
  type NotificationDeliveryItem,
  type WorkItem,
  type WorkResult,
} from '@platform/messaging';
import { ChannelSecretBox } from '../channels/channel-secrets.js';
import { ChannelsService } from '../channels/channels.service.js';
import { NOTIFICATION_CONFIG, type NotificationConfig } from '../config/notification.config.js';
import type { AttemptOutcome } from '../delivery/outcome.js';
import { Senders, type Destination } from '../delivery/senders.js';
import type { Attempt } from './notification.record.js';
import { deliveryAttempted } from './notification.metrics.js';
import { notificationsRepository, type AttemptRecord, type ClaimedNotification } from './notifications.repository.js';

/**
 * Delivers queued notifications from the JetStream work queue. Each item takes its row first
 * (`claim`: a duplicate item, or one for a notification already done, finds nothing and is acked),
 * makes one attempt, and records it: delivered and permanent failures are final; a transient
 * failure is retried with exponential backoff (or after `Retry-After` when longer) until
 * NOTIFICATION_MAX_ATTEMPTS. A worker killed mid-attempt leaves the item unacked and the row
 * under a short lease: the item comes back and the attempt is made again (at least once).
 */
@Injectable()
export class DeliveryWorker extends QueueConsumer<NotificationDeliveryItem> {
  private readonly claims: TenantBatcher<string, ClaimedNotification | undefined>;
  private readonly records: TenantBatcher<AttemptRecord, undefined>;

  constructor(
    private readonly db: TenantDb,
    private readonly channels: ChannelsService,
    private readonly box: ChannelSecretBox,
    private readonly senders: Senders,
    @Inject(NOTIFICATION_CONFIG) private readonly config: NotificationConfig,
    @Inject(NATS_CONNECTION) nc: NatsConnection,
  ) {
    super(nc, NOTIFICATION_DELIVERY_QUEUE, {
      concurrency: config.NOTIFICATION_CONCURRENCY,
      failure: 'delivery failed before its outcome was recorded (redelivered)',
      level: 'warn',
    });
    const leaseMs = config.NOTIFICATION_SEND_TIMEOUT_MS + 5000;
    this.claims = new TenantBatcher(async (ctx, ids) => {
      // The lease need not survive a database crash: lost, the work item comes back and claims again.
      const rows = await notificationsRepository.claim(this.db, ctx, ids, leaseMs);
      const byId = new Map(rows.map((r) => [r.id, r]));
      // A duplicate item in the same batch gets nothing: the first one took the notification.
      return ids.map((id) => {
        const row = byId.get(id);
        byId.delete(id);
        return row;
      });
    });
    this.records = new TenantBatcher(async (ctx, records) => {
      await notificationsRepository.recordAttempts(this.db, ctx, records);
      return records.map(() => undefined);
    });
  }

  /**
   * Delivers the notifications an item names, at once. The item is acknowledged when each is
   * delivered or failed for good; while any waits for a retry, the item comes back when the
   * earliest is due (a notification not yet due is left alone, and one another worker holds is
   * that worker's).
   */
  protected async handle(item: WorkItem<NotificationDeliveryItem>): Promise<WorkResult> {
    if (!hasTenant(item.context)) return { ack: true };
    const ctx: TenantContext = { tenantId: item.context.tenantId, environmentId: item.context.environmentId, scopeId: item.context.scopeId ?? null };
    const ids = item.data.notificationIds ?? (item.data.notificationId ? [item.data.notificationId] : []);
    const rows = await Promise.all(ids.map((id) => this.claims.submit(ctx, id)));
    const retries = await Promise.all(rows.map((row) => (row ? this.deliverOne(ctx, row) : Promise.resolve(null))));
    const unclaimed = ids.filter((_, i) => !rows[i]);
    if (unclaimed.length) {
      const due = await this.db.run(ctx, (m) => notificationsRepository.nextRetryAt(m, unclaimed));
      if (due) retries.push(Math.max(0, due.getTime() - Date.now()));
    }
    const waits = retries.filter((r): r is number => r !== null);
    return waits.length ? { retryInMs: Math.min(...waits) } : { ack: true };
  }

  /** One attempt and its record; answers how long until the retry it leads to, or null when final. */
  private async deliverOne(ctx: TenantContext, row: ClaimedNotification): Promise<number | null> {
    const outcome = await this.attempt(ctx, row);
    const attemptNo = row.attempt_count + 1;
    const at = new Date().toISOString();
    if (outcome.outcome === 'delivered') {
      await this.record(ctx, row, { attempt: attemptNo, at, outcome: 'delivered', status_code: outcome.statusCode, error: null }, 'delivered', null);
      return null;
    }
    if (outcome.outcome === 'permanent' || attemptNo >= this.config.NOTIFICATION_MAX_ATTEMPTS) {
      await this.record(ctx, row, { attempt: attemptNo, at, outcome: 'failed', status_code: outcome.statusCode, error: outcome.error }, 'failed', null);
      return null;
    }
    const backoff = retryDelayMs(attemptNo, this.config.NOTIFICATION_RETRY_BASE_MS, this.config.NOTIFICATION_RETRY_MAX_MS);
    const delay = Math.min(this.config.NOTIFICATION_RETRY_MAX_MS, Math.max(backoff, outcome.retryAfterMs ?? 0));
    const retryAt = new Date(Date.now() + delay);
    const attempt: Attempt = {
      attempt: attemptNo,
      at,
      outcome: 'retry',
      status_code: outcome.statusCode,
      error: outcome.error,
      retry_at: retryAt.toISOString(),
    };
    await this.record(ctx, row, attempt, 'retrying', retryAt);
    return delay;
  }

  private async attempt(ctx: TenantContext, row: ClaimedNotification): Promise<AttemptOutcome> {
    let destination: Destination;
    try {
      destination = await this.destination(ctx, row);
    } catch (error) {
      return { outcome: 'permanent', statusCode: null, error: (error as Error).message };
    }
    return this.senders.send(destination, row.content, row.id);
  }

  private async destination(ctx: TenantContext, row: ClaimedNotification): Promise<Destination> {
    const recipients = row.recipients ?? [];
    if (row.channel_id) {
      const channel = await this.channels.open(ctx, row.channel_id).catch((error: Error & { status?: number }) => {
        throw new Error(error.status === 404 ? 'the channel was deleted' : error.message);
      });
      return { kind: row.kind, channel, recipients };
    }
    if (!row.target_iv || !row.target_ciphertext || !row.target_tag) throw new Error('the notification has no destination');
    const url = this.box.openTarget(ctx.tenantId, ctx.environmentId, row.id, { iv: row.target_iv, ciphertext: row.target_ciphertext, tag: row.target_tag });
    return { kind: row.kind, url, recipients };
  }

  private record(
    ctx: TenantContext,
    row: ClaimedNotification,
    attempt: Attempt,
    status: 'delivered' | 'failed' | 'retrying',
    next: Date | null,
  ): Promise<undefined> {
    deliveryAttempted(row.kind, attempt.outcome);
    const id = row.id;
    return this.records.submit(ctx, { id, attempt, status, nextAttemptAt: next });
  }
}
