import { RefreshingCache } from '@platform/common';
import type { PlanChannel, TenantLimits } from './plan-channel.js';

/** Bounds the callers map: a flood of made-up keys cannot grow the gateway's memory without limit. */
const MAX_ENTRIES = 100_000;

/**
 * What the gateway knows of tenants, all in memory so the hot path makes no extra round trip:
 * which tenant a credential belongs to (learned from the services' answers, which name the tenant
 * they authenticated) and each tenant's plan limits (asked once, then kept current by pushed
 * changes and a periodic refresh). Until both are known, the default limits apply.
 */
export class PlanDirectory {
  private readonly callers = new Map<string, string>();
  private readonly tenants: RefreshingCache<TenantLimits>;

  constructor(channel: PlanChannel, refreshMs: number) {
    this.tenants = new RefreshingCache({ load: (tenantId) => channel.get(tenantId), refreshMs, maxEntries: MAX_ENTRIES });
    channel.onChange((limits) => this.apply(limits));
  }

  /** The services authenticated `callerId` as a credential of `tenantId`. */
  learn(callerId: string, tenantId: string): void {
    if (this.callers.get(callerId) === tenantId) return;
    if (this.callers.size >= MAX_ENTRIES) this.callers.delete(this.callers.keys().next().value!);
    this.callers.set(callerId, tenantId);
  }

  /** The caller's tenant limits if known; asks for them in the background when missing or due a refresh. */
  limitsFor(callerId: string, now = Date.now()): TenantLimits | undefined {
    const tenantId = this.callers.get(callerId);
    return tenantId === undefined ? undefined : this.tenants.peek(tenantId, now);
  }

  /** A newer computation replaces an older one, never the reverse (events and answers may cross). */
  apply(limits: TenantLimits): void {
    this.tenants.apply(limits.tenantId, limits);
  }
}
