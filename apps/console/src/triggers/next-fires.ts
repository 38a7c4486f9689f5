import type { Trigger } from '@platform-sdk/client';

/** How many fire times an interval schedule lists (a cron schedule shows the API's next one). */
const UPCOMING = 3;

/**
 * The next fire times of an enabled schedule: the API's `next_fire_at`, then for an interval the
 * ticks after it (one interval apart, until `end_at`). Other triggers fire when something happens.
 */
export function upcomingFires(trigger: Trigger, count = UPCOMING): string[] {
  if (!trigger.next_fire_at) return [];
  const first = Date.parse(trigger.next_fire_at);
  const step = (trigger.schedule?.interval_seconds ?? 0) * 1000;
  const end = trigger.schedule?.end_at ? Date.parse(trigger.schedule.end_at) : Infinity;
  const times = [trigger.next_fire_at];
  for (let i = 1; step > 0 && i < count && first + i * step <= end; i++) times.push(new Date(first + i * step).toISOString());
  return times;
}
