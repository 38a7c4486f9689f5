import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from '@jest/globals';
import { Redis } from 'ioredis';
import { WindowCounter } from '../src/counters/window-counter.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('WindowCounter (real Redis)', () => {
  const counter = new WindowCounter({ url: REDIS_URL, commandTimeoutMs: 1000 });
  const redis = new Redis(REDIS_URL);
  const prefix = `window-counter-test:${randomUUID()}`;

  afterAll(async () => {
    counter.close();
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  });

  const ready = async () => {
    for (let i = 0; i < 50 && !counter.ready; i++) await new Promise((r) => setTimeout(r, 50));
    expect(counter.ready).toBe(true);
  };

  it('gives concurrent hits on one key each its own count, exactly as if they came one by one', async () => {
    await ready();
    const keys = [`${prefix}:a`, `${prefix}:b`];
    const results = await Promise.all(Array.from({ length: 500 }, () => counter.hit(keys, [60_000, 120_000])));
    const first = results.map((r) => r[0]).sort((x, y) => x - y);
    const second = results.map((r) => r[1]).sort((x, y) => x - y);
    expect(first).toEqual(Array.from({ length: 500 }, (_, i) => i + 1));
    expect(second).toEqual(first);
    expect(await redis.get(keys[0])).toBe('500');
    // Each key got its own expiry when it was created, and the later increments kept it.
    const [ttlA, ttlB] = [await redis.pttl(keys[0]), await redis.pttl(keys[1])];
    expect(ttlA).toBeGreaterThan(50_000);
    expect(ttlA).toBeLessThanOrEqual(60_000);
    expect(ttlB).toBeGreaterThan(110_000);
  });

  it('keeps separate keys separate', async () => {
    await ready();
    const [x, y] = await Promise.all([counter.hit([`${prefix}:x`], [60_000]), counter.hit([`${prefix}:y`], [60_000])]);
    expect(x).toEqual([1]);
    expect(y).toEqual([1]);
  });

  it('fails at once, without queueing, when Redis is unreachable', async () => {
    const errors: Error[] = [];
    const down = new WindowCounter({ url: 'redis://127.0.0.1:1', commandTimeoutMs: 100, onError: (e) => errors.push(e) });
    try {
      expect(down.ready).toBe(false);
      await expect(down.hit([`${prefix}:down`], [60_000])).rejects.toThrow();
    } finally {
      down.close();
    }
  });
});
