import { Inject, Injectable } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import type { EntityManager } from 'typeorm';
import { SystemDb } from '@platform/db';
import {
  AccountSubjects,
  KEY_EXPIRY_NOTICES_QUEUE,
  NATS_CONNECTION,
  enqueueWork,
  ensureWorkQueue,
  messageContext,
  type ApiKeyExpiringEvent,
} from '@platform/messaging';
import { PeriodicJob, SERVICE_CONFIG } from '@platform/service';
import type { AccountConfig } from '../config/account.config.js';
import type { ApiKeyRow } from './api-key.record.js';
import { lockKeysToAnnounce, markExpiryAnnounced } from './api-keys.repository.js';

const BATCH = 100;
const DAY_MS = 86_400_000;

const announcement = (key: ApiKeyRow): ApiKeyExpiringEvent => ({
  keyId: key.id,
  name: key.name,
  prefix: key.prefix,
  type: key.type,
  mode: key.mode,
  customerId: key.customer_id,
  expiresAt: key.expires_at!.toISOString(),
});

/**
 * Announces API keys about to expire (within KEY_EXPIRY_NOTICE_DAYS), once per key: each pass
 * locks unannounced keys of every tenant (FOR UPDATE SKIP LOCKED, so replicas take different
 * keys), publishes each to the notification service's durable queue and marks it announced in
 * the same transaction. A failed publish rolls the batch back for the next pass; a publish whose
 * commit failed is repeated under the same message id, which the stream drops (and the notice's
 * idempotency key would send once anyway).
 */
@Injectable()
export class KeyExpiryNoticeJob extends PeriodicJob {
  private readonly windowMs: number;
  private queueReady = false;

  constructor(
    private readonly system: SystemDb,
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    @Inject(SERVICE_CONFIG) config: AccountConfig,
  ) {
    const enabled = config.KEY_EXPIRY_NOTICE_DAYS > 0;
    super({ name: 'KeyExpiryNoticeJob', intervalMs: enabled ? config.KEY_EXPIRY_NOTICE_INTERVAL_MS : 0, runAtStart: enabled });
    this.windowMs = config.KEY_EXPIRY_NOTICE_DAYS * DAY_MS;
  }

  protected pass(): Promise<number> {
    return this.announce();
  }

  async announce(): Promise<number> {
    if (!this.queueReady) {
      // The queue exists before the first notice, even if the notification service never started.
      await ensureWorkQueue(this.nc, KEY_EXPIRY_NOTICES_QUEUE);
      this.queueReady = true;
    }
    let total = 0;
    for (;;) {
      const seen = await this.system.run('announce API keys about to expire', (m) => this.announceBatch(m), 'debug');
      total += seen;
      if (seen < BATCH) break;
    }
    if (total) this.logger.log(`announced ${total} API key(s) about to expire`);
    return total;
  }

  private async announceBatch(m: EntityManager): Promise<number> {
    const keys = await lockKeysToAnnounce(m, this.windowMs, BATCH);
    for (const key of keys) {
      const context = messageContext({ tenantId: key.tenant_id, environmentId: key.environment_id, scopeId: null }, { actor: 'system:key-expiry-notice' });
      await enqueueWork(this.nc, AccountSubjects.keyExpiring, announcement(key), `key-expiring-${key.id}-${key.expires_at!.getTime()}`, context);
    }
    if (keys.length)
      await markExpiryAnnounced(
        m,
        keys.map((k) => k.id),
      );
    return keys.length;
  }
}
