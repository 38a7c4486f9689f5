import type { CallerClass } from './caller.js';

/** A fixed window: windows start at multiples of the window length since the Unix epoch. */
export interface RateWindow {
  /** Which window `now` falls in; part of the counter's key, so each window counts from zero. */
  number: number;
  /** Unix seconds when the window ends (`X-RateLimit-Reset`). */
  resetSeconds: number;
}

export function currentWindow(nowMs: number, windowSeconds: number): RateWindow {
  const number = Math.floor(nowMs / (windowSeconds * 1000));
  return { number, resetSeconds: (number + 1) * windowSeconds };
}

/** `X-RateLimit-Remaining`: never negative, however far past the limit the counter is. */
export function remaining(limit: number, count: number): number {
  return count >= limit ? 0 : limit - count;
}

/** `Retry-After`: whole seconds until the window ends, rounded up, at least 1. */
export function retryAfterSeconds(nowMs: number, resetSeconds: number): number {
  return Math.max(1, Math.ceil(resetSeconds - nowMs / 1000));
}

const NOUNS: Record<CallerClass, string> = { live: 'API key', test: 'API key', user: 'user', anonymous: 'client', webhook: 'webhook' };

/** The message of the 429's error body. */
export function limitExceededMessage(limit: number, windowSeconds: number, callerClass: CallerClass): string {
  return `Rate limit exceeded: ${limit} requests per ${windowSeconds} s for this ${NOUNS[callerClass]}`;
}
