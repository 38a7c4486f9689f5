import { describe, expect, it } from '@jest/globals';
import { periodAfter, periodAt, secondsUntil } from './periods.js';

describe('billing periods', () => {
  it('are calendar months in UTC', () => {
    expect(periodAt(new Date('2026-11-24T15:40:00Z'))).toEqual({ start: new Date('2026-11-01T00:00:00Z'), end: new Date('2026-12-01T00:00:00Z') });
    expect(periodAt(new Date('2026-12-31T23:59:59.999Z'))).toEqual({ start: new Date('2026-12-01T00:00:00Z'), end: new Date('2027-01-01T00:00:00Z') });
  });

  it('follow an early close with a period to the next month boundary', () => {
    expect(periodAfter(new Date('2026-11-24T15:40:00Z'))).toEqual({ start: new Date('2026-11-24T15:40:00Z'), end: new Date('2026-12-01T00:00:00Z') });
    expect(periodAfter(new Date('2026-12-01T00:00:00Z'))).toEqual({ start: new Date('2026-12-01T00:00:00Z'), end: new Date('2027-01-01T00:00:00Z') });
  });

  it('answer Retry-After in whole seconds, at least 1', () => {
    expect(secondsUntil(new Date(10_500), 0)).toBe(11);
    expect(secondsUntil(new Date(0), 5_000)).toBe(1);
  });
});
