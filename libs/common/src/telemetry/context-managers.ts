import { ROOT_CONTEXT, type Context, type ContextManager } from '@opentelemetry/api';
import { currentTraceContext, runInTraceContext } from '../context/request-context.js';

/** `target` run in `context` by `manager`, for ContextManager.bind. */
function bindTo<T>(manager: ContextManager, context: Context, target: T): T {
  // What the instrumentations we load bind are callbacks (pg's query and connect callbacks); any
  // other target (a promise, an emitter) is returned as it is, its handlers running in whatever
  // context they are called in.
  if (typeof target !== 'function') return target;
  const fn = target as (...args: unknown[]) => unknown;
  return function (this: unknown, ...args: unknown[]) {
    return manager.with(context, () => fn.apply(this, args));
  } as T;
}

/**
 * The trace context kept in the request context's AsyncLocalStorage (context/request-context.ts)
 * rather than in a storage of its own, as OpenTelemetry's AsyncLocalStorageContextManager would:
 * the same propagation across every await, callback and timer, paid once instead of twice.
 */
export class RequestScopeContextManager implements ContextManager {
  active(): Context {
    return currentTraceContext() ?? ROOT_CONTEXT;
  }

  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(context: Context, fn: F, thisArg?: ThisParameterType<F>, ...args: A): ReturnType<F> {
    const callback = thisArg == null ? fn : (fn.bind(thisArg) as F);
    return runInTraceContext(context, callback, ...args);
  }

  bind<T>(context: Context, target: T): T {
    return bindTo(this, context, target);
  }

  enable(): this {
    return this;
  }

  disable(): this {
    return this;
  }
}

/**
 * A context that lasts only as long as the synchronous call made in it, for a process that passes
 * its trace context along explicitly (the gateway: the proxy reads the request's context off the
 * request). No AsyncLocalStorage is used, so Node's async hooks stay off: in a process that only
 * proxies, the hooks on every promise and socket callback cost more than the spans.
 */
export class SynchronousContextManager implements ContextManager {
  private current: Context = ROOT_CONTEXT;

  active(): Context {
    return this.current;
  }

  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(context: Context, fn: F, thisArg?: ThisParameterType<F>, ...args: A): ReturnType<F> {
    const previous = this.current;
    this.current = context;
    try {
      return fn.apply(thisArg, args);
    } finally {
      this.current = previous;
    }
  }

  bind<T>(context: Context, target: T): T {
    return bindTo(this, context, target);
  }

  enable(): this {
    return this;
  }

  disable(): this {
    this.current = ROOT_CONTEXT;
    return this;
  }
}
