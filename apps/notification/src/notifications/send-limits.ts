import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { Subscription } from '@nats-io/transport-node';
import { RefreshingCache } from '@platform/common';
import { WindowCounter } from '@platform/common/window-counter';
import type { TenantContext } from '@platform/db';
import { Bus, SubscriptionSubjects, messageContext, type PlanNotificationLimits, type TenantLimits } from '@platform/messaging';
import { NOTIFICATION_CONFIG, type NotificationConfig } from '../config/notification.config.js';

export type LimitVerdict = { ok: true } | { ok: false; period: 'minute' | 'day'; retryAfterSeconds: number };

const WARN_INTERVAL_MS = 60_000;
const MINUTE_TTL_MS = 61_000;
const DAY_TTL_MS = 86_401_000;
/** How long the first send of a tenant waits for the subscription service before the settings apply. */
const ASK_TIMEOUT_MS = 1000;

/**
 * Per-tenant-environment sending limits, per minute and per UTC day, counted in Redis so every
 * replica shares them. The limits are the tenant's plan's (asked of the subscription service once
 * per tenant, then kept current by its `subscription.limits.changed` events and a refresh every
 * NOTIFICATION_PLAN_REFRESH_MS); without an answer, or for a plan that sets none, the
 * NOTIFICATION_LIMIT_* settings apply. When Redis is unavailable sends are not limited: a counter
 * outage must not stop notifications (logged, at most once a minute).
 */
@Injectable()
export class SendLimits implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(SendLimits.name);
  private readonly counter: WindowCounter;
  private readonly plans: RefreshingCache<TenantLimits>;
  private changes?: Subscription;
  private warnedAt = -Infinity;

  constructor(
    @Inject(NOTIFICATION_CONFIG) private readonly config: NotificationConfig,
    private readonly bus: Bus,
  ) {
    this.counter = new WindowCounter({ url: config.REDIS_URL, commandTimeoutMs: 200, onError: (error) => this.warn(error) });
    this.plans = new RefreshingCache({ load: (tenantId) => this.ask(tenantId), refreshMs: config.NOTIFICATION_PLAN_REFRESH_MS });
  }

  onModuleInit(): void {
    // Every replica hears a plan change (no queue group): each keeps its own copy of the limits.
    this.changes = this.bus.subscribeAll(SubscriptionSubjects.limitsChanged, (event) => this.plans.apply(event.data.tenantId, event.data));
  }

  /** The limits in force for the tenant: its plan's, or the settings. */
  async limitsFor(tenantId: string): Promise<PlanNotificationLimits> {
    const plan = (await this.plans.get(tenantId))?.notificationLimits;
    return plan ?? { perMinute: this.config.NOTIFICATION_LIMIT_PER_MINUTE, perDay: this.config.NOTIFICATION_LIMIT_PER_DAY };
  }

  async hit(ctx: TenantContext): Promise<LimitVerdict> {
    const limits = await this.limitsFor(ctx.tenantId);
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
    if (counts[1] > limits.perDay) return { ok: false, period: 'day', retryAfterSeconds: Math.ceil(((day + 1) * 86_400_000 - now) / 1000) };
    if (counts[0] > limits.perMinute) return { ok: false, period: 'minute', retryAfterSeconds: Math.ceil(((minute + 1) * 60_000 - now) / 1000) };
    return { ok: true };
  }

  onModuleDestroy(): void {
    this.changes?.unsubscribe();
    this.counter.close();
  }

  /** The subscription service's answer; undefined when it is not running or does not know the tenant. */
  private async ask(tenantId: string): Promise<TenantLimits | undefined> {
    try {
      return await this.bus.request(SubscriptionSubjects.limitsGet, { tenantId }, messageContext(null, { actor: 'system:notification' }), {
        timeoutMs: ASK_TIMEOUT_MS,
      });
    } catch {
      return undefined;
    }
  }

  private warn(error: Error): void {
    if (Date.now() - this.warnedAt < WARN_INTERVAL_MS) return;
    this.warnedAt = Date.now();
    this.logger.warn(`notification limits unavailable (Redis): sending without limits: ${error.message}`);
  }
}
