import { describe, expect, it } from '@jest/globals';
import { RefreshingCache } from './refreshing-cache.js';

const value = (n: number, computedAt = new Date().toISOString()) => ({ n, computedAt });

describe('RefreshingCache', () => {
  it('makes the first use of a key wait for the answer, and later uses never wait', async () => {
    const asked: string[] = [];
    let next = 1;
    const cache = new RefreshingCache({ load: (key) => (asked.push(key), Promise.resolve(value(next++))), refreshMs: 1000 });
    expect((await cache.get('t1'))?.n).toBe(1);
    expect((await cache.get('t1'))?.n).toBe(1);
    expect(asked).toEqual(['t1']);
    // Due a refresh: the cached value now, the new one once the answer is in.
    expect((await cache.get('t1', Date.now() + 1500))?.n).toBe(1);
    await Promise.resolve();
    expect(cache.peek('t1')?.n).toBe(2);
  });

  it('answers undefined when the owner cannot, and asks again only after a pause', async () => {
    let calls = 0;
    const cache = new RefreshingCache<{ computedAt: string }>({
      load: () => (calls++, Promise.reject(new Error('no responders'))),
      refreshMs: 60_000,
      retryMs: 2000,
    });
    expect(await cache.get('t1')).toBeUndefined();
    expect(await cache.get('t1')).toBeUndefined();
    expect(calls).toBe(1);
    await cache.get('t1', Date.now() + 2500);
    expect(calls).toBe(2);
  });

  it('takes pushed changes for keys in use only, and never an older one over a newer one', async () => {
    const cache = new RefreshingCache({ load: () => Promise.resolve(value(1, '2026-01-01T00:00:01.000Z')), refreshMs: 60_000 });
    cache.apply('unknown', value(9));
    await cache.get('t1');
    cache.apply('t1', value(2, '2026-01-01T00:00:02.000Z'));
    cache.apply('t1', value(0, '2026-01-01T00:00:00.000Z'));
    expect(cache.peek('t1')?.n).toBe(2);
    expect(cache.peek('unknown')).toBeUndefined();
  });
});
