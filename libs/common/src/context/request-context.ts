import { AsyncLocalStorage } from 'node:async_hooks';
import type { Context } from '@opentelemetry/api';

/** What one request (HTTP or a message) carries through every call it makes. */
export interface RequestContext {
  requestId: string;
  /** Who caused it: a key id, a user id, or `system:<job>`. */
  actor?: string;
}

/**
 * What the asynchronous work of a request carries: its request context and, with tracing on, its
 * trace context. One AsyncLocalStorage holds both: Node copies each storage's slot into every
 * promise and callback made while one is set, so OpenTelemetry's own storage beside this one cost
 * every request that copying twice (telemetry/context-managers.ts keeps the trace context here).
 */
interface Scope {
  request?: RequestContext;
  trace?: Context;
}

const storage = new AsyncLocalStorage<Scope>();

/**
 * Runs `fn` with this request context: log lines written inside it carry the request id, and
 * messages sent inside it carry the request id and actor, however deep the call that sends them.
 * The trace context stays the one active here.
 */
export function runInRequestContext<T>(context: RequestContext, fn: () => T): T {
  return storage.run({ request: context, trace: storage.getStore()?.trace }, fn);
}

export function currentRequestContext(): RequestContext | undefined {
  return storage.getStore()?.request;
}

/**
 * `fn` bound to the request (and trace) context current now, for callbacks that a stream or a pool
 * runs later outside it. Cheaper than AsyncResource.bind, which makes an async resource and two
 * deprecation wrappers per call: on a hot path (every JSON body) that was measurable.
 */
export function bindRequestContext<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R {
  const scope = storage.getStore();
  return scope ? (...args: A) => storage.run(scope, fn, ...args) : fn;
}

/** Runs `fn` with this request context and this trace context, in one scope (a traced request's start). */
export function runInRequestScope<T>(request: RequestContext, trace: Context, fn: () => T): T {
  return storage.run({ request, trace }, fn);
}

/** The trace context active here (for the trace context manager only). */
export function currentTraceContext(): Context | undefined {
  return storage.getStore()?.trace;
}

/** Runs `fn` with `trace` as the active trace context, the request context unchanged (for the trace context manager only). */
export function runInTraceContext<A extends unknown[], R>(trace: Context, fn: (...args: A) => R, ...args: A): R {
  return storage.run({ request: storage.getStore()?.request, trace }, fn, ...args);
}
