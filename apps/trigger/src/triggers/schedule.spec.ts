import { describe, expect, it } from '@jest/globals';
import { cronProblem, isTimeZone, nextFireAfter, planDue, type ScheduleSpec } from './schedule.js';

const spec = (over: Partial<ScheduleSpec>): ScheduleSpec => ({
  cron: null,
  intervalSeconds: null,
  timezone: 'UTC',
  startAt: null,
  endAt: null,
  anchor: new Date('2026-01-01T00:00:00Z'),
  ...over,
});
const iso = (d: Date | null) => d?.toISOString() ?? null;
const walk = (s: ScheduleSpec, from: string, n: number) => {
  const out: string[] = [];
  let at = new Date(from);
  for (let i = 0; i < n; i++) {
    const next = nextFireAfter(s, at);
    if (!next) break;
    out.push(next.toISOString());
    at = next;
  }
  return out;
};

describe('next fire time', () => {
  it('follows a cron in a time zone', () => {
    expect(iso(nextFireAfter(spec({ cron: '0 9 * * 1-5', timezone: 'America/New_York' }), new Date('2026-06-05T14:00:00Z')))).toBe('2026-06-08T13:00:00.000Z');
    expect(iso(nextFireAfter(spec({ cron: '0 9 * * *', timezone: 'Asia/Tokyo' }), new Date('2026-06-05T00:00:00Z')))).toBe('2026-06-06T00:00:00.000Z');
    expect(iso(nextFireAfter(spec({ cron: '*/10 * * * * *' }), new Date('2026-06-05T00:00:03.500Z')))).toBe('2026-06-05T00:00:10.000Z');
  });

  it('fires a wall-clock time skipped by the spring change once, at the next valid instant', () => {
    // Europe/Berlin, 2026-03-29: 02:00 CET jumps to 03:00 CEST; 02:30 does not exist that day.
    expect(walk(spec({ cron: '30 2 * * *', timezone: 'Europe/Berlin' }), '2026-03-28T00:00:00Z', 3)).toEqual([
      '2026-03-28T01:30:00.000Z',
      '2026-03-29T01:00:00.000Z',
      '2026-03-30T00:30:00.000Z',
    ]);
    // America/New_York, 2026-03-08: 02:00 EST jumps to 03:00 EDT.
    expect(walk(spec({ cron: '30 2 * * *', timezone: 'America/New_York' }), '2026-03-07T12:00:00Z', 2)).toEqual([
      '2026-03-08T07:00:00.000Z',
      '2026-03-09T06:30:00.000Z',
    ]);
  });

  it('fires a wall-clock time repeated by the autumn change once', () => {
    // Europe/Berlin, 2026-10-25: 03:00 CEST falls back to 02:00 CET; 02:30 happens twice.
    expect(walk(spec({ cron: '30 2 * * *', timezone: 'Europe/Berlin' }), '2026-10-24T00:00:00Z', 3)).toEqual([
      '2026-10-24T00:30:00.000Z',
      '2026-10-25T00:30:00.000Z',
      '2026-10-26T01:30:00.000Z',
    ]);
    expect(walk(spec({ cron: '30 1 * * *', timezone: 'America/New_York' }), '2026-10-31T12:00:00Z', 2)).toEqual([
      '2026-11-01T05:30:00.000Z',
      '2026-11-02T06:30:00.000Z',
    ]);
  });

  it('counts intervals from start_at or the anchor and stops after end_at', () => {
    const s = spec({ intervalSeconds: 90, startAt: new Date('2026-01-01T00:00:10Z'), endAt: new Date('2026-01-01T00:03:00Z') });
    expect(walk(s, '2025-12-31T00:00:00Z', 5)).toEqual(['2026-01-01T00:00:10.000Z', '2026-01-01T00:01:40.000Z']);
    expect(iso(nextFireAfter(spec({ intervalSeconds: 60 }), new Date('2026-01-01T00:00:30Z')))).toBe('2026-01-01T00:01:00.000Z');
    expect(iso(nextFireAfter(spec({ cron: '* * * * *', startAt: new Date('2027-01-01T00:00:00Z') }), new Date('2026-01-01T00:00:30Z')))).toBe(
      '2027-01-01T00:00:00.000Z',
    );
  });

  it('validates patterns and time zones', () => {
    expect(cronProblem('*/5 * * * *')).toBeNull();
    expect(cronProblem('* * * * * *')).toBeNull();
    expect(cronProblem('61 * * * *')).toMatch(/minute/);
    expect(cronProblem('* * *')).toBe('must have 5 or 6 fields');
    expect(isTimeZone('Europe/Paris')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
  });
});

describe('due ticks and misfires', () => {
  const every = spec({ cron: '* * * * * *' });
  const now = new Date('2026-01-01T00:10:00Z');

  it('fires every tick within the grace period', () => {
    const plan = planDue(every, new Date('2026-01-01T00:09:58Z'), now, 5000, 'skip');
    expect(plan.fire.map(iso)).toEqual(['2026-01-01T00:09:58.000Z', '2026-01-01T00:09:59.000Z', '2026-01-01T00:10:00.000Z']);
    expect(plan.skipped).toBe(0);
    expect(iso(plan.next)).toBe('2026-01-01T00:10:01.000Z');
  });

  it('fires the latest missed tick once with fire_once, none with skip', () => {
    const once = planDue(every, new Date('2026-01-01T00:09:00Z'), now, 2000, 'fire_once');
    expect(once.fire.map(iso)).toEqual(['2026-01-01T00:09:57.000Z', '2026-01-01T00:09:58.000Z', '2026-01-01T00:09:59.000Z', '2026-01-01T00:10:00.000Z']);
    expect(once.skipped).toBe(57);
    const skip = planDue(every, new Date('2026-01-01T00:09:00Z'), now, 2000, 'skip');
    expect(skip.fire).toHaveLength(3);
    expect(skip.skipped).toBe(58);
  });

  it('jumps over a long outage of a per-second schedule', () => {
    const plan = planDue(every, new Date('2025-12-31T00:00:00Z'), now, 1000, 'fire_once');
    expect(plan.fire.length).toBeLessThanOrEqual(3);
    expect(iso(plan.next)).toBe('2026-01-01T00:10:01.000Z');
  });
});
