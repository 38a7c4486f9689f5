import type { ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { WindowCounter } from '@platform/common/window-counter';
import type { GatewayConfig } from '../config/gateway.config.js';
import type { GatewayRequest } from '../proxy/proxy.js';
import type { PlanDirectory } from '../plan-limits/plan-directory.js';
import { quotaExceeded, tooManyRequests, type ExhaustedQuota } from '../plan-limits/quotas.js';
import type { Caller, CallerClass } from './caller.js';
import { currentWindow, limitExceededMessage, remaining, retryAfterSeconds } from './rate-window.js';

/** At most one "Redis unavailable" warning per this many milliseconds. */
const WARN_INTERVAL_MS = 10_000;

export interface RateLimiter {
  /**
   * Counts the request against its caller's limit and sets the `X-RateLimit-*` headers, then
   * calls `next`; over the limit, or with `quota` used up, it answers 429 itself and `next` is
   * not called (a request refused for its quota still counts against the rate limit). `route` is
   * handed through to `next` so the caller needs no closure per request.
   */
  admit<R>(
    req: GatewayRequest,
    res: ServerResponse,
    caller: Caller,
    quota: ExhaustedQuota | undefined,
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
 * reconnects by itself. `plans`: the per-key limits follow the tenant's plan (PLAN_LIMITS_ENABLED).
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
    admit(req, res, caller, quota, route, next) {
      const plan = plans && (caller.class === 'live' || caller.class === 'test' || caller.class === 'user') ? plans.limitsFor(caller.id) : undefined;
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
