import { describe, expect, it } from 'vitest';
import type { Trigger } from '@platform-sdk/client';
import { upcomingFires } from './next-fires';

const base: Trigger = {
  id: 't',
  name: 'hourly',
  workflow_id: 'w',
  type: 'schedule',
  status: 'enabled',
  input: null,
  webhook_id: null,
  next_fire_at: '2026-11-28T10:00:00.000Z',
  created_at: '2026-11-28T09:00:00.000Z',
  updated_at: '2026-11-28T09:00:00.000Z',
  schedule: { cron: null, interval_seconds: 3600, timezone: 'UTC', start_at: null, end_at: null, misfire: 'skip' },
};

describe('upcomingFires', () => {
  it('lists the next tick and the ones an interval after it', () => {
    expect(upcomingFires(base)).toEqual(['2026-11-28T10:00:00.000Z', '2026-11-28T11:00:00.000Z', '2026-11-28T12:00:00.000Z']);
  });

  it('stops at the end of the schedule', () => {
    expect(upcomingFires({ ...base, schedule: { ...base.schedule!, end_at: '2026-11-28T11:30:00.000Z' } })).toHaveLength(2);
  });

  it('gives only the API’s next tick for a cron schedule, and none for a disabled trigger', () => {
    expect(upcomingFires({ ...base, schedule: { ...base.schedule!, cron: '0 * * * *', interval_seconds: null } })).toEqual(['2026-11-28T10:00:00.000Z']);
    expect(upcomingFires({ ...base, status: 'disabled', next_fire_at: null })).toEqual([]);
  });
});
