import { AsyncLocalStorage } from 'node:async_hooks';

/** What one request (HTTP or a message) carries through every call it makes. */
export interface RequestContext {
  requestId: string;
  /** Who caused it: a key id, a user id, or `system:<job>`. */
  actor?: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

/**
 * Runs `fn` with this request context: log lines written inside it carry the request id, and
 * messages sent inside it carry the request id and actor, however deep the call that sends them.
 */
export function runInRequestContext<T>(context: RequestContext, fn: () => T): T {
  return storage.run(context, fn);
}

export function currentRequestContext(): RequestContext | undefined {
  return storage.getStore();
}

/**
 * `fn` bound to the request context current now, for callbacks that a stream or a pool runs later
 * outside it. Cheaper than AsyncResource.bind, which makes an async resource and two deprecation
 * wrappers per call: on a hot path (every JSON body) that was measurable.
 */
export function bindRequestContext<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R {
  const context = storage.getStore();
  return context ? (...args: A) => storage.run(context, fn, ...args) : fn;
}
