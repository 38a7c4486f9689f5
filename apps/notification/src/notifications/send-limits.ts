import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { WindowCounter } from '@platform/common/window-counter';
import type { TenantContext } from '@platform/db';
import { NOTIFICATION_CONFIG, type NotificationConfig } from '../config/notification.config.js';

export type LimitVerdict = { ok: true } | { ok: false; period: 'minute' | 'day'; retryAfterSeconds: number };

const WARN_INTERVAL_MS = 60_000;
const MINUTE_TTL_MS = 61_000;
const DAY_TTL_MS = 86_401_000;

/**
 * Per-tenant-environment sending limits, per minute and per UTC day, counted in Redis so every
 * replica shares them. The limits come from configuration. When Redis is unavailable sends are
 * not limited: a counter outage must not stop notifications (logged, at most once a minute).
 */
@Injectable()
export class SendLimits implements OnModuleDestroy {
  private readonly logger = new Logger(SendLimits.name);
  private readonly counter: WindowCounter;
  private warnedAt = -Infinity;

  constructor(@Inject(NOTIFICATION_CONFIG) private readonly config: NotificationConfig) {
    this.counter = new WindowCounter({ url: config.REDIS_URL, commandTimeoutMs: 200, onError: (error) => this.warn(error) });
  }

  async hit(ctx: TenantContext): Promise<LimitVerdict> {
    const now = Date.now();
    const minute = Math.floor(now / 60_000);
    const day = Math.floor(now / 86_400_000);
    const base = `notification-limit:${ctx.tenantId}:${ctx.environmentId}`;
    let counts: number[];
    try {
      counts = await this.counter.hit([`${base}:m:${minute}`, `${base}:d:${day}`], [MINUTE_TTL_MS, DAY_TTL_MS]);
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
    this.counter.close();
  }

  private warn(error: Error): void {
    if (Date.now() - this.warnedAt < WARN_INTERVAL_MS) return;
    this.warnedAt = Date.now();
    this.logger.warn(`notification limits unavailable (Redis): sending without limits: ${error.message}`);
  }
}
