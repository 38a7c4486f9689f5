import type { ServerResponse } from 'node:http';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { errorBody } from '@platform/common';
import type { GatewayConfig } from '../config/gateway.config.js';
import type { GatewayRequest } from '../proxy/proxy.js';
import { identifyCaller, type CallerClass } from './caller.js';
import { currentWindow, limitExceededMessage, remaining, retryAfterSeconds } from './rate-window.js';

/** One round trip per request: count, and start the key's expiry with its first hit. */
const HIT_SCRIPT = `local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return count`;

type CountingRedis = Redis & { rateLimitHit(key: string, ttlMs: number): Promise<number> };

/** At most one "Redis unavailable" warning per this many milliseconds. */
const WARN_INTERVAL_MS = 10_000;

export interface RateLimiter {
  /**
   * Counts the request against its caller's limit and sets the `X-RateLimit-*` headers, then
   * calls `next`; over the limit it answers 429 itself and `next` is not called. `route` is
   * handed through to `next` so the caller needs no closure per request.
   */
  admit<R>(req: GatewayRequest, res: ServerResponse, route: R, next: (req: GatewayRequest, res: ServerResponse, route: R) => void): void;
  close(): void;
}

/**
 * Fixed-window limits per credential, counted in Redis so every replica shares them. Redis down
 * or slow never fails a request: it is served without limits (fail open), and the client
 * reconnects by itself.
 */
export function createRateLimiter(config: GatewayConfig, logger: Logger): RateLimiter {
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

  const redis = new Redis(config.REDIS_URL, {
    lazyConnect: true,
    // Fail fast instead of queueing: a command either gets Redis's answer at once or errors.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: 100,
    connectTimeout: 1_000,
    // A connection that stops answering (not just refusing) is dropped and reconnected.
    socketTimeout: 1_000,
    retryStrategy: (attempt) => Math.min(attempt * 100, 1_000),
  }) as CountingRedis;
  redis.defineCommand('rateLimitHit', { numberOfKeys: 1, lua: HIT_SCRIPT });

  let warnedAt = -Infinity;
  let degraded = false;
  const unavailable = (error: Error): void => {
    degraded = true;
    const now = Date.now();
    if (now - warnedAt < WARN_INTERVAL_MS) return;
    warnedAt = now;
    logger.warn({ err: error.message }, 'rate limiting unavailable (Redis): serving requests without limits');
  };
  redis.on('error', unavailable);
  redis.on('ready', () => {
    if (!degraded) return;
    degraded = false;
    logger.info('rate limiting restored (Redis is back)');
  });
  redis.connect().catch(() => {
    // Reported through the 'error' event; the client keeps reconnecting by itself.
  });

  return {
    admit(req, res, route, next) {
      // Not connected: don't ask (the command would only fail); serve without limits.
      if (redis.status !== 'ready') {
        next(req, res, route);
        return;
      }
      const caller = identifyCaller(req.headers, req.socket.remoteAddress, req.url);
      const limit = limits[caller.class];
      const window = currentWindow(Date.now(), windowSeconds);
      redis.rateLimitHit(`${prefix}:${caller.id}:${window.number}`, ttlMs).then(
        (count) => {
          res.setHeader('X-RateLimit-Limit', limit);
          res.setHeader('X-RateLimit-Remaining', remaining(limit, count));
          res.setHeader('X-RateLimit-Reset', window.resetSeconds);
          if (count <= limit) next(req, res, route);
          else tooManyRequests(req, res, limitExceededMessage(limit, windowSeconds, caller.class), retryAfterSeconds(Date.now(), window.resetSeconds));
        },
        (error: Error) => {
          unavailable(error);
          next(req, res, route);
        },
      );
    },
    close() {
      redis.disconnect();
    },
  };
}

function tooManyRequests(req: GatewayRequest, res: ServerResponse, message: string, retryAfter: number): void {
  const body = JSON.stringify(errorBody(429, message, req.id));
  res.writeHead(429, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), 'retry-after': String(retryAfter) });
  res.end(body);
  // Drain any request body so the connection can be reused.
  req.resume();
}
