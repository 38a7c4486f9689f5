import type { ServerResponse } from 'node:http';
import { errorBody } from '@platform/common';
import type { GatewayRequest } from '../proxy/proxy.js';
import type { TenantLimits } from './plan-channel.js';
import type { PlanDirectory } from './plan-directory.js';
import { quotaMetric } from './quota-routes.js';

export type ExhaustedQuota = TenantLimits['exhausted'][number];

/**
 * Used-up quotas, checked in memory (no round trip) from what the plan directory knows of the
 * caller's tenant. Quotas hold live keys only: test keys work on sandbox data (spec 8), and user
 * sessions are not metered against them. Independent of rate limiting: a gateway without
 * rate limits (RATE_LIMIT_ENABLED=false) still refuses work past a used-up quota.
 */
export class QuotaGate {
  constructor(private readonly plans: PlanDirectory) {}

  /** The quota this request would add to, if the caller's tenant has used it up for the period. */
  exhausted(caller: { class: string; id: string }, method: string | undefined, upstreamPath: string | undefined, now = Date.now()): ExhaustedQuota | undefined {
    if (caller.class !== 'live' || upstreamPath === undefined) return undefined;
    const plan = this.plans.limitsFor(caller.id, now);
    if (!plan || plan.exhausted.length === 0) return undefined;
    const metric = quotaMetric(method, upstreamPath);
    if (!metric) return undefined;
    const quota = plan.exhausted.find((q) => q.metric === metric);
    // Past the period's end the quota starts afresh, even before the new limits arrive.
    return quota && Date.parse(quota.until) > now ? quota : undefined;
  }
}

/** `429` naming the quota, with `Retry-After` up to the end of the period. */
export function quotaExceeded(req: GatewayRequest, res: ServerResponse, quota: ExhaustedQuota): void {
  const retryAfter = Math.max(1, Math.ceil((Date.parse(quota.until) - Date.now()) / 1000));
  tooManyRequests(req, res, `Quota exceeded: ${quota.metric} (${quota.limit} per billing period) is used up until ${quota.until}`, retryAfter);
}

/** The gateway's own `429` (a rate limit or a quota), answered without reaching a service. */
export function tooManyRequests(req: GatewayRequest, res: ServerResponse, message: string, retryAfter: number): void {
  const body = JSON.stringify(errorBody(429, message, req.id));
  res.writeHead(429, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), 'retry-after': String(retryAfter) });
  res.end(body);
  // Drain any request body so the connection can be reused.
  req.resume();
}
