import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { Redis } from 'ioredis';
import { TooManyRequestsError } from '@platform/common';
import { PORTAL_CONFIG, type PortalConfig } from '../config/portal.config.js';

/** Counts both windows and sets their expiry in one round trip. */
const HIT_SCRIPT = `
local l = redis.call('INCR', KEYS[1]); if l == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local a = redis.call('INCR', KEYS[2]); if a == 1 then redis.call('PEXPIRE', KEYS[2], ARGV[1]) end
return { l, a }`;

type CountingRedis = Redis & { portalFormHit(linkKey: string, addressKey: string, ttlMs: number): Promise<[number, number]> };

const WINDOW_MS = 60_000;

/**
 * Public form submissions per link (the embed's own limit) and per client address within one
 * tenant, in fixed one-minute windows counted in Redis like the gateway's limits, so every replica
 * shares them. A Redis outage lets submissions through (logged): the gateway's per-address limit
 * still applies.
 */
@Injectable()
export class SubmissionLimits implements OnModuleDestroy {
  private readonly logger = new Logger(SubmissionLimits.name);
  private readonly redis: CountingRedis;

  constructor(@Inject(PORTAL_CONFIG) private readonly config: PortalConfig) {
    this.redis = new Redis(config.REDIS_URL, {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: 200,
      connectTimeout: 1000,
      retryStrategy: (attempt) => Math.min(attempt * 100, 1000),
    }) as CountingRedis;
    this.redis.defineCommand('portalFormHit', { numberOfKeys: 2, lua: HIT_SCRIPT });
    this.redis.on('error', (error: Error) => this.logger.warn(`redis: ${error.message}`));
    this.redis.connect().catch(() => undefined);
  }

  /** Throws 429 with Retry-After when this submission is over either limit. */
  async hit(link: { tenantId: string; embedId: string; perMinute: number }, address: string): Promise<void> {
    const now = Date.now();
    const window = Math.floor(now / WINDOW_MS);
    let counts: [number, number];
    try {
      counts = await this.redis.portalFormHit(
        `portal-form:link:${link.embedId}:${window}`,
        `portal-form:addr:${link.tenantId}:${address}:${window}`,
        WINDOW_MS + 1000,
      );
    } catch (error) {
      this.logger.warn(`form limits not counted: ${(error as Error).message}`);
      return;
    }
    const retry = Math.max(1, Math.ceil(((window + 1) * WINDOW_MS - now) / 1000));
    if (counts[0] > link.perMinute) throw new TooManyRequestsError(`Too many submissions of this form: at most ${link.perMinute} per minute`, retry);
    if (counts[1] > this.config.PORTAL_FORM_LIMIT_PER_ADDRESS)
      throw new TooManyRequestsError(`Too many submissions from your address: at most ${this.config.PORTAL_FORM_LIMIT_PER_ADDRESS} per minute`, retry);
  }

  onModuleDestroy(): void {
    this.redis.disconnect();
  }
}
