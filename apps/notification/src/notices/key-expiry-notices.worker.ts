import { Inject, Injectable } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import { AppError } from '@platform/common';
import type { TenantContext } from '@platform/db';
import {
  KEY_EXPIRY_NOTICES_QUEUE,
  NATS_CONNECTION,
  QueueConsumer,
  hasTenant,
  type ApiKeyExpiringEvent,
  type WorkItem,
  type WorkResult,
} from '@platform/messaging';
import { NotificationsService } from '../notifications/notifications.service.js';
import { NoticeSettingsService } from './notice-settings.service.js';

/**
 * `api_key_expiring` notices: the account service announces each key about to expire once, on a
 * durable queue (a notice published while this service is down waits for it). Each becomes one
 * platform send to where the environment's notice settings say (none set: nothing is sent); the
 * idempotency key makes a redelivered announcement send nothing more. A send the platform refuses
 * for good (the channel was deleted or disabled) is logged and dropped; anything else is retried.
 */
@Injectable()
export class KeyExpiryNoticesWorker extends QueueConsumer<ApiKeyExpiringEvent> {
  constructor(
    private readonly settings: NoticeSettingsService,
    private readonly notifications: NotificationsService,
    @Inject(NATS_CONNECTION) nc: NatsConnection,
  ) {
    super(nc, KEY_EXPIRY_NOTICES_QUEUE, { concurrency: 8, failure: 'API key expiry notice not sent yet (retried)', level: 'warn' });
  }

  protected async handle(item: WorkItem<ApiKeyExpiringEvent>): Promise<WorkResult> {
    if (!hasTenant(item.context)) return { ack: true };
    // The environment's notice, whoever owns the key (a customer's key included).
    const ctx: TenantContext = { tenantId: item.context.tenantId, environmentId: item.context.environmentId, scopeId: null };
    const key = item.data;
    const target = await this.settings.target(ctx, 'api_key_expiring');
    if (!target) return { ack: true };
    try {
      await this.notifications.send(ctx, {
        channelId: target.channel_id,
        to: target.to,
        template: 'api_key_expiring',
        variables: {
          key_name: key.name,
          key_prefix: key.prefix,
          key_id: key.keyId,
          key_type: key.type,
          key_mode: key.mode,
          customer_id: key.customerId ?? null,
          expires_at: key.expiresAt,
        },
        idempotencyKey: `notice:api_key_expiring:${key.keyId}:${key.expiresAt}`,
        source: 'platform',
      });
    } catch (error) {
      if (!(error instanceof AppError) || error.status >= 500) throw error;
      this.logger.warn(`expiry notice for API key ${key.keyId} not sent: ${error.message}`);
    }
    return { ack: true };
  }
}
