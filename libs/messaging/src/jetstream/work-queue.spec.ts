import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { retryDelayMs } from './work-queue.js';

const SAMPLES = 2000;

function samples(deliveryCount: number, baseMs?: number, capMs?: number): number[] {
  return Array.from({ length: SAMPLES }, () => retryDelayMs(deliveryCount, baseMs, capMs));
}

describe('retryDelayMs', () => {
  afterEach(() => {
    jest.restoreAllMocks();
  });

  it.each([
    [1, 500],
    [2, 1000],
    [3, 2000],
    [5, 8000],
  ])('after delivery %i stays between half the ceiling and the ceiling of %i ms', (count, ceiling) => {
    const delays = samples(count);
    expect(Math.min(...delays)).toBeGreaterThanOrEqual(ceiling / 2);
    expect(Math.max(...delays)).toBeLessThanOrEqual(ceiling);
    expect(delays.every(Number.isInteger)).toBe(true);
  });

  it('spreads the delays (jitter)', () => {
    expect(new Set(samples(4)).size).toBeGreaterThan(10);
  });

  it('grows with the delivery count', () => {
    jest.spyOn(Math, 'random').mockReturnValue(0.5);
    const delays = [1, 2, 3, 4, 5, 6, 7].map((count) => retryDelayMs(count));
    for (let i = 1; i < delays.length; i++) expect(delays[i]).toBeGreaterThan(delays[i - 1]);
    expect(Math.max(...samples(2))).toBeLessThan(Math.min(...samples(4)));
  });

  it('spans exactly half the ceiling to the ceiling at the extremes of the random source', () => {
    jest.spyOn(Math, 'random').mockReturnValue(0);
    expect(retryDelayMs(3)).toBe(1000);
    jest.spyOn(Math, 'random').mockReturnValue(0.9999999);
    expect(retryDelayMs(3)).toBe(2000);
  });

  it('never exceeds the cap, however many deliveries', () => {
    for (const count of [8, 10, 20, 100, 1000]) {
      const delays = samples(count);
      expect(Math.max(...delays)).toBeLessThanOrEqual(60_000);
      expect(Math.min(...delays)).toBeGreaterThanOrEqual(30_000);
    }
  });

  it('honours a custom base and cap', () => {
    const first = samples(1, 100, 1000);
    expect(Math.min(...first)).toBeGreaterThanOrEqual(50);
    expect(Math.max(...first)).toBeLessThanOrEqual(100);
    const capped = samples(10, 100, 1000);
    expect(Math.min(...capped)).toBeGreaterThanOrEqual(500);
    expect(Math.max(...capped)).toBeLessThanOrEqual(1000);
  });

  it('treats a delivery count below 1 like the first delivery', () => {
    for (const count of [0, -5]) {
      const delays = samples(count);
      expect(Math.min(...delays)).toBeGreaterThanOrEqual(250);
      expect(Math.max(...delays)).toBeLessThanOrEqual(500);
    }
  });
});
