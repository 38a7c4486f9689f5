import type { PlanChannel, TenantLimits } from './plan-channel.js';

/** Bounds both maps: a flood of made-up keys or tenants cannot grow the gateway's memory without limit. */
const MAX_ENTRIES = 100_000;

interface TenantEntry {
  limits?: TenantLimits;
  fetchedAt: number;
  fetching: boolean;
}

/**
 * What the gateway knows of tenants, all in memory so the hot path makes no extra round trip:
 * which tenant a credential belongs to (learned from the services' answers, which name the tenant
 * they authenticated) and each tenant's plan limits (asked once, then kept current by pushed
 * changes and a periodic refresh). Until both are known, the default limits apply.
 */
export class PlanDirectory {
  private readonly callers = new Map<string, string>();
  private readonly tenants = new Map<string, TenantEntry>();

  constructor(
    private readonly channel: PlanChannel,
    private readonly refreshMs: number,
  ) {
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
    if (tenantId === undefined) return undefined;
    let entry = this.tenants.get(tenantId);
    if (!entry) {
      if (this.tenants.size >= MAX_ENTRIES) this.tenants.delete(this.tenants.keys().next().value!);
      entry = { fetchedAt: -Infinity, fetching: false };
      this.tenants.set(tenantId, entry);
    }
    if (!entry.fetching && now - entry.fetchedAt >= this.refreshMs) this.fetch(tenantId, entry);
    return entry.limits;
  }

  /** A newer computation replaces an older one, never the reverse (events and answers may cross). */
  apply(limits: TenantLimits): void {
    const entry = this.tenants.get(limits.tenantId);
    if (!entry) return; // a tenant this process has not met: nothing to keep current
    if (entry.limits && entry.limits.computedAt > limits.computedAt) return;
    entry.limits = limits;
    entry.fetchedAt = Date.now();
  }

  private fetch(tenantId: string, entry: TenantEntry): void {
    entry.fetching = true;
    void this.channel.get(tenantId).then((limits) => {
      entry.fetching = false;
      if (limits) this.apply(limits);
      // Not answered: try again after a short pause rather than on every request.
      else entry.fetchedAt = Date.now() - this.refreshMs + 2000;
    });
  }
}
