import { setImmediate as tick } from 'node:timers/promises';
import { describe, expect, it } from '@jest/globals';
import { ROOT_CONTEXT, createContextKey } from '@opentelemetry/api';
import { bindRequestContext, currentRequestContext, runInRequestContext } from '../context/request-context.js';
import { RequestScopeContextManager, SynchronousContextManager } from './context-managers.js';

const key = createContextKey('test');
const traceOf = (value: string) => ROOT_CONTEXT.setValue(key, value);
const valueIn = (manager: { active(): { getValue(k: symbol): unknown } }) => manager.active().getValue(key);

describe('RequestScopeContextManager: the trace context in the request context storage', () => {
  const manager = new RequestScopeContextManager();

  it('follows awaits and timers, and ends with the call', async () => {
    expect(manager.active()).toBe(ROOT_CONTEXT);
    const seen = await manager.with(traceOf('a'), async () => {
      await tick();
      await new Promise((resolve) => setTimeout(resolve, 1));
      return valueIn(manager);
    });
    expect(seen).toBe('a');
    expect(manager.active()).toBe(ROOT_CONTEXT);
  });

  it('keeps the request context when a trace context is set, and the trace context when a request context is set', async () => {
    const seen = await runInRequestContext({ requestId: 'req-1' }, () =>
      manager.with(traceOf('outer'), async () => {
        await tick();
        const inner = await runInRequestContext({ requestId: 'req-2' }, async () => {
          await tick();
          return { request: currentRequestContext()?.requestId, trace: valueIn(manager) };
        });
        return { inner, request: currentRequestContext()?.requestId, trace: valueIn(manager) };
      }),
    );
    expect(seen).toEqual({ inner: { request: 'req-2', trace: 'outer' }, request: 'req-1', trace: 'outer' });
  });

  it('keeps two concurrent requests apart', async () => {
    const one = manager.with(traceOf('one'), async () => {
      await tick();
      await tick();
      return valueIn(manager);
    });
    const two = manager.with(traceOf('two'), async () => {
      await tick();
      return valueIn(manager);
    });
    await expect(Promise.all([one, two])).resolves.toEqual(['one', 'two']);
  });

  it('binds a callback to a context, passing `this` and the arguments; other targets are returned as they are', () => {
    const bound = manager.bind(traceOf('bound'), function (this: { n: number }, add: number) {
      return `${String(valueIn(manager))} ${this.n + add}`;
    });
    expect(bound.call({ n: 1 }, 2)).toBe('bound 3');
    const target = { not: 'a function' };
    expect(manager.bind(traceOf('x'), target)).toBe(target);
  });

  it('binds both contexts with bindRequestContext', async () => {
    const callback = runInRequestContext({ requestId: 'req-3' }, () =>
      manager.with(traceOf('kept'), () => bindRequestContext(() => ({ request: currentRequestContext()?.requestId, trace: valueIn(manager) }))),
    );
    await tick();
    expect(callback()).toEqual({ request: 'req-3', trace: 'kept' });
  });
});

describe('SynchronousContextManager: a context for the synchronous call only', () => {
  it('is active inside the call, restored after it (also when it throws), and gone after an await', async () => {
    const manager = new SynchronousContextManager();
    const afterAwait = manager.with(traceOf('sync'), async () => {
      expect(valueIn(manager)).toBe('sync');
      expect(manager.with(traceOf('nested'), () => valueIn(manager))).toBe('nested');
      expect(valueIn(manager)).toBe('sync');
      await tick();
      return manager.active();
    });
    expect(manager.active()).toBe(ROOT_CONTEXT);
    await expect(afterAwait).resolves.toBe(ROOT_CONTEXT);
    expect(() =>
      manager.with(traceOf('throws'), () => {
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(manager.active()).toBe(ROOT_CONTEXT);
    expect(manager.bind(traceOf('bound'), () => valueIn(manager))()).toBe('bound');
  });
});
