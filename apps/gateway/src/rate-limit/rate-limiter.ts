import type { ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { errorBody } from '@platform/common';
import { WindowCounter } from '@platform/common/window-counter';
import type { GatewayConfig } from '../config/gateway.config.js';
import type { GatewayRequest } from '../proxy/proxy.js';
import type { PlanDirectory } from '../plan-limits/plan-directory.js';
import type { TenantLimits } from '../plan-limits/plan-channel.js';
import { quotaMetric } from '../plan-limits/quota-routes.js';
import { identifyCaller, type CallerClass } from './caller.js';
import { currentWindow, limitExceededMessage, remaining, retryAfterSeconds } from './rate-window.js';

/** At most one "Redis unavailable" warning per this many milliseconds. */
const WARN_INTERVAL_MS = 10_000;

export interface RateLimiter {
  /**
   * Counts the request against its caller's limit and sets the `X-RateLimit-*` headers, then
   * calls `next`; over the limit it answers 429 itself and `next` is not called. `route` is
   * handed through to `next` so the caller needs no closure per request.
   */
  admit<R extends { upstreamPath: string } | undefined>(
    req: GatewayRequest,
    res: ServerResponse,
    route: R,
    next: (req: GatewayRequest, res: ServerResponse, route: R) => void,
  ): void;
  /** Whether the counters' store answers: `DOWN` means requests are served without limits. */
  redisStatus(): 'UP' | 'DOWN';
  close(): void;
}

/**
 * Fixed-window limits per credential, counted in Redis so every replica shares them. Redis down
 * or slow never fails a request: it is served without limits (fail open), and the client
 * reconnects by itself.
 */
export function createRateLimiter(config: GatewayConfig, logger: Logger, plans?: PlanDirectory): RateLimiter {
  const limits: Record<CallerClass, number> = {
    live: config.RATE_LIMIT_LIVE_PER_MINUTE,
    test: config.RATE_LIMIT_TEST_PER_MINUTE,
    user: config.RATE_LIMIT_USER_PER_MINUTE,
    anonymous: config.RATE_LIMIT_ANONYMOUS_PER_MINUTE,
    webhook: config.RATE_LIMIT_WEBHOOK_PER_MINUTE,
  };
  const windowSeconds = config.RATE_LIMIT_WINDOW_SECONDS;
  const ttlMs = windowSeconds * 1000;
  const prefix = config.RATE_LIMIT_KEY_PREFIX;

  let warnedAt = -Infinity;
  let degraded = false;
  const unavailable = (error: Error): void => {
    degraded = true;
    const now = Date.now();
    if (now - warnedAt < WARN_INTERVAL_MS) return;
    warnedAt = now;
    logger.warn({ err: error.message }, 'rate limiting unavailable (Redis): serving requests without limits');
  };
  const counter = new WindowCounter({
    url: config.REDIS_URL,
    commandTimeoutMs: 100,
    socketTimeoutMs: 1_000,
    onError: unavailable,
    // A Redis that shuts down closes the connection without an error: that is the outage's first sign.
    onClose: () => unavailable(new Error('connection to Redis closed')),
    onReady: () => {
      if (!degraded) return;
      degraded = false;
      logger.info('rate limiting restored (Redis is back)');
    },
  });

  return {
    admit(req, res, route, next) {
      const caller = identifyCaller(req.headers, req.socket.remoteAddress, req.url);
      req.callerId = caller.id;
      const plan = plans && (caller.class === 'live' || caller.class === 'test' || caller.class === 'user') ? plans.limitsFor(caller.id) : undefined;
      // Quotas hold live keys only: test keys work on sandbox data (spec 8). The check is local: no round trip.
      const quota = plan && caller.class === 'live' && route ? exhaustedQuota(plan, req.method, route.upstreamPath) : undefined;
      // Not connected: don't ask (the command would only fail); serve without rate limits.
      if (!counter.ready) {
        if (quota) quotaExceeded(req, res, quota);
        else next(req, res, route);
        return;
      }
      const limit = plan ? plan.rateLimits[caller.class as 'live' | 'test' | 'user'] : limits[caller.class];
      const window = currentWindow(Date.now(), windowSeconds);
      counter.hit([`${prefix}:${caller.id}:${window.number}`], [ttlMs]).then(
        ([count]) => {
          res.setHeader('X-RateLimit-Limit', limit);
          res.setHeader('X-RateLimit-Remaining', remaining(limit, count));
          res.setHeader('X-RateLimit-Reset', window.resetSeconds);
          if (count > limit)
            tooManyRequests(req, res, limitExceededMessage(limit, windowSeconds, caller.class), retryAfterSeconds(Date.now(), window.resetSeconds));
          else if (quota) quotaExceeded(req, res, quota);
          else next(req, res, route);
        },
        (error: Error) => {
          unavailable(error);
          if (quota) quotaExceeded(req, res, quota);
          else next(req, res, route);
        },
      );
    },
    redisStatus: () => (counter.ready ? 'UP' : 'DOWN'),
    close() {
      counter.close();
    },
  };
}

/** The quota this request would add to, if the tenant has used it up for the period. */
function exhaustedQuota(plan: TenantLimits, method: string | undefined, upstreamPath: string): TenantLimits['exhausted'][number] | undefined {
  if (plan.exhausted.length === 0) return undefined;
  const metric = quotaMetric(method, upstreamPath);
  if (!metric) return undefined;
  const quota = plan.exhausted.find((q) => q.metric === metric);
  // Past the period's end the quota starts afresh, even before the new limits arrive.
  return quota && Date.parse(quota.until) > Date.now() ? quota : undefined;
}

function quotaExceeded(req: GatewayRequest, res: ServerResponse, quota: TenantLimits['exhausted'][number]): void {
  const retryAfter = Math.max(1, Math.ceil((Date.parse(quota.until) - Date.now()) / 1000));
  tooManyRequests(req, res, `Quota exceeded: ${quota.metric} (${quota.limit} per billing period) is used up until ${quota.until}`, retryAfter);
}

function tooManyRequests(req: GatewayRequest, res: ServerResponse, message: string, retryAfter: number): void {
  const body = JSON.stringify(errorBody(429, message, req.id));
  res.writeHead(429, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), 'retry-after': String(retryAfter) });
  res.end(body);
  // Drain any request body so the connection can be reused.
  req.resume();
}
