import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { Redis } from 'ioredis';
import type { TenantContext } from '@platform/db';
import { NOTIFICATION_CONFIG, type NotificationConfig } from '../config/notification.config.js';

export type LimitVerdict = { ok: true } | { ok: false; period: 'minute' | 'day'; retryAfterSeconds: number };

/** Counts both windows and expires them in one round trip; answers the counts after this send. */
const HIT_SCRIPT = `
local m = redis.call('INCR', KEYS[1]); if m == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local d = redis.call('INCR', KEYS[2]); if d == 1 then redis.call('PEXPIRE', KEYS[2], ARGV[2]) end
return { m, d }`;

type CountingRedis = Redis & { notificationHit(minuteKey: string, dayKey: string, minuteTtl: number, dayTtl: number): Promise<[number, number]> };

const WARN_INTERVAL_MS = 60_000;

/**
 * Per-tenant-environment sending limits, per minute and per UTC day, counted in Redis so every
 * replica shares them. The limits come from configuration (the subscription service has no plans
 * to read them from yet). When Redis is unavailable sends are not limited: a counter outage must
 * not stop notifications (logged, at most once a minute).
 */
@Injectable()
export class SendLimits implements OnModuleDestroy {
  private readonly logger = new Logger(SendLimits.name);
  private readonly redis: CountingRedis;
  private warnedAt = -Infinity;

  constructor(@Inject(NOTIFICATION_CONFIG) private readonly config: NotificationConfig) {
    this.redis = new Redis(config.REDIS_URL, {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: 200,
      connectTimeout: 1000,
      retryStrategy: (attempt) => Math.min(attempt * 100, 1000),
    }) as CountingRedis;
    this.redis.defineCommand('notificationHit', { numberOfKeys: 2, lua: HIT_SCRIPT });
    this.redis.on('error', (error: Error) => this.warn(error));
    this.redis.connect().catch(() => undefined);
  }

  async hit(ctx: TenantContext): Promise<LimitVerdict> {
    const now = Date.now();
    const minute = Math.floor(now / 60_000);
    const day = Math.floor(now / 86_400_000);
    const base = `notification-limit:${ctx.tenantId}:${ctx.environmentId}`;
    let counts: [number, number];
    try {
      counts = await this.redis.notificationHit(`${base}:m:${minute}`, `${base}:d:${day}`, 61_000, 86_401_000);
    } catch (error) {
      this.warn(error as Error);
      return { ok: true };
    }
    if (counts[1] > this.config.NOTIFICATION_LIMIT_PER_DAY)
      return { ok: false, period: 'day', retryAfterSeconds: Math.ceil(((day + 1) * 86_400_000 - now) / 1000) };
    if (counts[0] > this.config.NOTIFICATION_LIMIT_PER_MINUTE)
      return { ok: false, period: 'minute', retryAfterSeconds: Math.ceil(((minute + 1) * 60_000 - now) / 1000) };
    return { ok: true };
  }

  onModuleDestroy(): void {
    this.redis.disconnect();
  }

  private warn(error: Error): void {
    if (Date.now() - this.warnedAt < WARN_INTERVAL_MS) return;
    this.warnedAt = Date.now();
    this.logger.warn(`notification limits unavailable (Redis): sending without limits: ${error.message}`);
  }
}
