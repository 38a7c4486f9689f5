import { Inject, Injectable, Logger } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import type { Principal } from '@platform/auth';
import { decodeCursor, newId, toPage, type Page } from '@platform/common';
import { TenantBatcher, TenantDb, type TenantContext } from '@platform/db';
import {
  MAX_NOTIFICATIONS_PER_ITEM,
  NATS_CONNECTION,
  NotificationSubjects,
  enqueueWork,
  messageContext,
  usageEventId,
  type NotificationQueued,
} from '@platform/messaging';
import { UsageOutbox } from '@platform/service';
import { ChannelSecretBox } from '../channels/channel-secrets.js';
import { Composer, type SendInput } from './composer.js';
import type { NotificationHistoryQueryDto } from './dto/notification-query.dto.js';
import { toNotificationResponse, type Attempt, type NotificationResponse, type NotificationRow } from './notification.record.js';
import { NotificationErrors } from './notifications.errors.js';
import { notificationsRepository, type MeteredSends, type NewNotification } from './notifications.repository.js';
import { SendLimits } from './send-limits.js';

/** The key mode a send is metered under; `none` for sends without an API key (workflow steps, platform notices). */
type KeyMode = 'live' | 'test' | 'none';

/**
 * Accepting notifications and reading their history. A send is checked and rendered, counted
 * against the tenant's limits, stored (deduplicated by idempotency key) and then queued for the
 * delivery worker: the answer comes after the row is committed, so an accepted notification is
 * never lost; a queueing that fails is repaired by the reconciler.
 */
@Injectable()
export class NotificationsService {
  private readonly logger = new Logger(NotificationsService.name);
  /**
   * Sends of one tenant arriving together are stored in one statement and one commit, with one
   * usage fact per key mode counting those stored (usage outbox); after the commit the facts are
   * published and the sends queued for delivery as one work item. The answers wait for the queueing.
   */
  private readonly inserts = new TenantBatcher<{ notification: NewNotification; metered: KeyMode | null }, Pick<NotificationRow, 'id' | 'status'> | undefined>(
    async (ctx, list) => {
      const facts = this.batchFacts(ctx, list);
      const rows = await notificationsRepository.accept(
        this.db,
        ctx,
        list.map((i) => i.notification),
        facts,
      );
      // A send that lost an idempotency race made no row, and is not counted.
      const made = new Set(rows.map((r) => r.id));
      this.usage.publish(
        facts.flatMap(({ ids, usage }) => {
          const quantity = ids.filter((id) => made.has(id)).length;
          return quantity ? [{ ...usage, fact: { ...usage.fact, quantity } }] : [];
        }),
      );
      const queued = rows.filter((r) => r.status === 'queued').map((r) => r.id);
      if (queued.length) await this.enqueue(ctx, queued);
      const byId = new Map(rows.map((r) => [r.id, r]));
      return list.map((i) => byId.get(i.notification.id));
    },
  );

  constructor(
    private readonly db: TenantDb,
    private readonly composer: Composer,
    private readonly limits: SendLimits,
    private readonly box: ChannelSecretBox,
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    private readonly usage: UsageOutbox,
  ) {}

  async send(ctx: TenantContext & { requestId?: string }, input: SendInput): Promise<NotificationQueued> {
    if (input.idempotencyKey) {
      const first = await this.db.run(ctx, (m) => notificationsRepository.byIdempotencyKey(m, input.idempotencyKey!));
      if (first) return this.repeat(first, await this.composer.compose(ctx, input).then((c) => c.requestHash));
    }
    const composed = await this.composer.compose(ctx, input);
    const verdict = await this.limits.hit(ctx);
    // The API is told at once; a platform notice is recorded as limited, so the history shows what was not sent.
    if (!verdict.ok && input.source !== 'platform') throw NotificationErrors.rateLimited(verdict.retryAfterSeconds, verdict.period);
    const limited: Attempt | null = verdict.ok
      ? null
      : { attempt: 1, at: new Date().toISOString(), outcome: 'rate_limited', status_code: 429, error: `sending limit per ${verdict.period} reached` };
    const id = newId();
    // A notice recorded as rate limited is not sent, and not metered.
    const metered = limited ? null : ((ctx as { keyMode?: KeyMode }).keyMode ?? 'none');
    const notification: NewNotification = {
      id,
      channelId: composed.channelId,
      kind: composed.kind,
      source: input.source,
      recipients: composed.recipients,
      target: composed.url ? this.box.sealTarget(ctx.tenantId, ctx.environmentId, id, composed.url) : null,
      subject: composed.subject,
      template: composed.template,
      content: composed.content,
      status: limited ? 'rate_limited' : 'queued',
      attempts: limited ? [limited] : [],
      idempotencyKey: input.idempotencyKey ?? null,
      requestHash: composed.requestHash,
    };
    const row = await this.inserts.submit(ctx, { notification, metered });
    if (!row) {
      // Another request with the same key won the race.
      const first = await this.db.run(ctx, (m) => notificationsRepository.byIdempotencyKey(m, input.idempotencyKey!));
      if (!first) throw new Error('idempotent notification vanished');
      return this.repeat(first, composed.requestHash);
    }
    return { id, status: row.status };
  }

  async history(p: Principal, q: NotificationHistoryQueryDto): Promise<Page<NotificationResponse>> {
    const before = decodeCursor(q.cursor, { id: 'uuid' });
    const rows = await this.db.run(p, (m) =>
      notificationsRepository.history(m, {
        channelId: q.channel_id,
        status: q.status,
        from: q.from,
        to: q.to,
        beforeId: before?.id ?? null,
        limit: q.limit,
      }),
    );
    return toPage(rows, q.limit, toNotificationResponse, (r) => ({ id: r.id }));
  }

  async get(p: Principal, id: string): Promise<NotificationResponse> {
    const row = await this.db.run(p, (m) => notificationsRepository.get(m, id));
    if (!row) throw NotificationErrors.notFound();
    return toNotificationResponse(row);
  }

  /**
   * Publishes one delivery item for notifications committed together; the message id (the first
   * one's id) makes a repeat within the stream's window a no-op. A failure is logged and left to
   * the reconciler: the rows are committed.
   */
  async enqueue(ctx: TenantContext & { requestId?: string }, ids: string[], msgId: string = ids[0]): Promise<boolean> {
    try {
      for (let i = 0; i < ids.length; i += MAX_NOTIFICATIONS_PER_ITEM) {
        const part = ids.slice(i, i + MAX_NOTIFICATIONS_PER_ITEM);
        const item = part.length === 1 ? { notificationId: part[0] } : { notificationIds: part };
        await enqueueWork(this.nc, NotificationSubjects.deliver, item, i === 0 ? msgId : part[0], messageContext(ctx, { requestId: ctx.requestId }));
      }
      return true;
    } catch (error) {
      this.logger.warn(`notifications ${ids.join(', ')} stored but not queued (the reconciler will): ${(error as Error).message}`);
      return false;
    }
  }

  /**
   * One fact per key mode for a batch: its event id is derived from the batch's first send of that
   * mode, so the relay, publishing the row again, repeats the same fact; the quantity written and
   * published is the number of those sends actually stored.
   */
  private batchFacts(ctx: TenantContext, list: { notification: NewNotification; metered: KeyMode | null }[]): MeteredSends[] {
    const byMode = new Map<KeyMode, string[]>();
    for (const { notification, metered } of list) {
      if (!metered) continue;
      const ids = byMode.get(metered);
      if (ids) ids.push(notification.id);
      else byMode.set(metered, [notification.id]);
    }
    return [...byMode].map(([mode, ids]) => ({
      ids,
      usage: this.usage.fact(ctx, {
        metric: 'notifications',
        quantity: ids.length,
        eventId: usageEventId('notification', ids[0]),
        ...(mode === 'none' ? {} : { keyMode: mode }),
      }),
    }));
  }

  private repeat(first: NotificationRow, hash: string): NotificationQueued {
    if (first.request_hash !== hash) throw NotificationErrors.idempotencyMismatch();
    return { id: first.id, status: first.status };
  }
}
