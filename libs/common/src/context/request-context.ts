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
