import { describe, expect, it } from '@jest/globals';
import { currentWindow, limitExceededMessage, remaining, retryAfterSeconds } from './rate-window.js';

describe('currentWindow', () => {
  it('numbers fixed windows from the epoch and ends each at the next boundary', () => {
    expect(currentWindow(1_700_000_000_000, 60)).toEqual({ number: 28_333_333, resetSeconds: 1_700_000_040 });
    expect(currentWindow(1_700_000_039_999, 60)).toEqual({ number: 28_333_333, resetSeconds: 1_700_000_040 });
    expect(currentWindow(1_700_000_040_000, 60)).toEqual({ number: 28_333_334, resetSeconds: 1_700_000_100 });
    expect(currentWindow(1_700_000_000_500, 1)).toEqual({ number: 1_700_000_000, resetSeconds: 1_700_000_001 });
  });
});

describe('remaining', () => {
  it('counts down to zero and never below', () => {
    expect([1, 2, 3, 4, 100].map((count) => remaining(3, count))).toEqual([2, 1, 0, 0, 0]);
  });
});

describe('retryAfterSeconds', () => {
  it('rounds the time to the window end up to whole seconds', () => {
    expect(retryAfterSeconds(1_700_000_000_000, 1_700_000_040)).toBe(40);
    expect(retryAfterSeconds(1_700_000_000_001, 1_700_000_040)).toBe(40);
    expect(retryAfterSeconds(1_700_000_000_999, 1_700_000_040)).toBe(40);
    expect(retryAfterSeconds(1_700_000_001_000, 1_700_000_040)).toBe(39);
  });

  it('is at least 1, even at or past the window end', () => {
    expect(retryAfterSeconds(1_700_000_039_999, 1_700_000_040)).toBe(1);
    expect(retryAfterSeconds(1_700_000_040_000, 1_700_000_040)).toBe(1);
    expect(retryAfterSeconds(1_700_000_041_000, 1_700_000_040)).toBe(1);
  });
});

describe('limitExceededMessage', () => {
  it.each([
    ['live', 'API key'],
    ['test', 'API key'],
    ['user', 'user'],
    ['anonymous', 'client'],
    ['webhook', 'webhook'],
  ] as const)('names the %s caller as this %s', (callerClass, noun) => {
    expect(limitExceededMessage(600, 60, callerClass)).toBe(`Rate limit exceeded: 600 requests per 60 s for this ${noun}`);
  });
});
