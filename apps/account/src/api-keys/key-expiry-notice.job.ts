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
import { errorMessage, someOf } from '@platform/common';
import { PeriodicJob, SERVICE_CONFIG } from '@platform/service';
import type { AccountConfig } from '../config/account.config.js';
import type { ApiKeyRow } from './api-key.record.js';
import {
  giveUpExpiryNotices,
  lockKeysToAnnounce,
  markExpiryAnnounced,
  recordExpiryNoticeFailures,
  type GivenUpNotice,
  type KeyRef,
} from './api-keys.repository.js';

const BATCH = 100;
const DAY_MS = 86_400_000;

export interface NoticeResult {
  /** Notices published and recorded by this pass. */
  announced: number;
  /** Keys whose notice failed to publish in this pass: counted on the key, tried again next pass until the key expires. */
  failed: number;
  /** Keys that reached their expiry date after failed attempts, recorded as given up by this pass (each once). */
  givenUp: number;
}

interface BatchOutcome {
  seen: number;
  announced: number;
  failures: (KeyRef & { error: string })[];
  /** The last key id of the batch: the next batch starts after it. */
  lastId: string | null;
}

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
 * the same transaction. A publish whose commit failed is repeated under the same message id,
 * which the stream drops (and the notice's idempotency key would send once anyway).
 *
 * Bounded retries: a key whose publish fails is recorded (`expiry_notice_attempts`, the error)
 * without holding back the others of its batch, and the pass walks on past it; the next pass tries
 * it again, but only until the key expires, when its notice is moot: it is then recorded as given
 * up (`expiry_notice_failed_at`) and logged at error, once.
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

  protected pass(): Promise<NoticeResult> {
    return this.announce();
  }

  async announce(): Promise<NoticeResult> {
    // First, and without the bus: a NATS outage must not keep the failures it caused from being recorded.
    const givenUp = await this.system.run('give up expiry notices of API keys that expired unannounced', (m) => giveUpExpiryNotices(m), 'debug');
    if (givenUp.length) this.logger.error(givenUpMessage(givenUp));
    const queueError = await this.ensureQueue();
    let announced = 0;
    const failures: BatchOutcome['failures'] = [];
    let afterId: string | null = null;
    for (;;) {
      const batch: BatchOutcome = await this.system.run('announce API keys about to expire', (m) => this.announceBatch(m, afterId, queueError), 'debug');
      announced += batch.announced;
      failures.push(...batch.failures);
      afterId = batch.lastId;
      if (batch.seen < BATCH) break;
    }
    if (announced) this.logger.log(`announced ${announced} API key(s) about to expire`);
    if (failures.length)
      this.logger.warn(
        `could not publish the expiry notice of ${failures.length} API key(s) (${distinct(failures.map((f) => f.error))}); ` +
          `each is tried again next pass until the key expires`,
      );
    return { announced, failed: failures.length, givenUp: givenUp.length };
  }

  /** Null once the queue exists; else why it could not be made (then every publish of the pass is recorded as failed). */
  private async ensureQueue(): Promise<string | null> {
    if (this.queueReady) return null;
    try {
      // The queue exists before the first notice, even if the notification service never started.
      await ensureWorkQueue(this.nc, KEY_EXPIRY_NOTICES_QUEUE);
      this.queueReady = true;
      return null;
    } catch (error) {
      return errorMessage(error);
    }
  }

  /** One batch: each key published on its own (one refusal holds back none of the others), the outcome recorded per key. */
  private async announceBatch(m: EntityManager, afterId: string | null, queueError: string | null): Promise<BatchOutcome> {
    const keys = await lockKeysToAnnounce(m, this.windowMs, BATCH, afterId);
    const outcomes = await Promise.allSettled(
      keys.map((key) => {
        if (queueError) return Promise.reject(new Error(queueError));
        const context = messageContext({ tenantId: key.tenant_id, environmentId: key.environment_id, scopeId: null }, { actor: 'system:key-expiry-notice' });
        return enqueueWork(this.nc, AccountSubjects.keyExpiring, announcement(key), `key-expiring-${key.id}-${key.expires_at!.getTime()}`, context);
      }),
    );
    const sent: KeyRef[] = [];
    const failures: BatchOutcome['failures'] = [];
    outcomes.forEach((outcome, i) => {
      const ref = { tenantId: keys[i].tenant_id, id: keys[i].id };
      if (outcome.status === 'fulfilled') sent.push(ref);
      else failures.push({ ...ref, error: errorMessage(outcome.reason) });
    });
    await markExpiryAnnounced(m, sent);
    await recordExpiryNoticeFailures(m, failures);
    return { seen: keys.length, announced: sent.length, failures, lastId: keys.at(-1)?.id ?? null };
  }
}

function givenUpMessage(keys: GivenUpNotice[]): string {
  const named = someOf(keys.map((k) => `tenant ${k.tenantId} key ${k.id} (${k.attempts} attempt(s): ${k.error ?? 'no error recorded'})`));
  return (
    `${keys.length} API key(s) expired before their expiry notice could be published; no longer tried ` +
    `(recorded in account.api_keys.expiry_notice_failed_at): ${named}`
  );
}

const distinct = (errors: string[]) => [...new Set(errors)].slice(0, 3).join('; ');
