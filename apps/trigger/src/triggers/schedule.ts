import { Cron } from 'croner';

/** What a schedule needs to say when it fires next. */
export interface ScheduleSpec {
  cron: string | null;
  intervalSeconds: number | null;
  timezone: string;
  startAt: Date | null;
  endAt: Date | null;
  /** Interval schedules count from here when start_at is not given. */
  anchor: Date;
}

export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** Null when the pattern is valid; else croner's reason. Five fields (minutes) or six (seconds first). */
export function cronProblem(pattern: string): string | null {
  const fields = pattern.trim().split(/\s+/).length;
  if (fields !== 5 && fields !== 6) return 'must have 5 or 6 fields';
  try {
    new Cron(pattern, { paused: true });
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

/**
 * The first instant strictly after `after` at which the schedule fires, or null when it has ended.
 * Cron runs on the wall clock of `timezone` (croner): a wall-clock time that does not exist (the
 * hour skipped in spring) fires once at the next valid instant, one that exists twice (the hour
 * repeated in autumn) fires once.
 */
export function nextFireAfter(spec: ScheduleSpec, after: Date): Date | null {
  const from = spec.startAt && spec.startAt.getTime() > after.getTime() ? new Date(spec.startAt.getTime() - 1) : after;
  let next: Date | null;
  if (spec.cron) {
    next = new Cron(spec.cron, { timezone: spec.timezone, paused: true }).nextRun(from);
  } else {
    const step = (spec.intervalSeconds ?? 60) * 1000;
    const anchor = (spec.startAt ?? spec.anchor).getTime();
    const k = Math.max(0, Math.floor((from.getTime() - anchor) / step) + 1);
    next = new Date(anchor + k * step);
  }
  if (next && spec.endAt && next.getTime() > spec.endAt.getTime()) return null;
  return next;
}

export interface DuePlan {
  /** Instants to fire now. */
  fire: Date[];
  /** Instants missed beyond the grace period and not fired (misfire: skip, or all but one for fire_once). */
  skipped: number;
  /** Where the schedule continues. */
  next: Date | null;
}

const MAX_DUE = 1000;

/**
 * Every instant from `nextFireAt` up to `now`: those within `graceMs` of now are on time and all
 * fire; older ones were missed (every replica down) and follow `misfire`: `fire_once` fires the
 * latest missed instant once, `skip` fires none of them.
 */
export function planDue(spec: ScheduleSpec, nextFireAt: Date, now: Date, graceMs: number, misfire: 'fire_once' | 'skip'): DuePlan {
  const onTime: Date[] = [];
  let latestMissed: Date | null = null;
  let missed = 0;
  let cursor: Date | null = nextFireAt;
  const cutoff = now.getTime() - graceMs;
  // A long outage of a per-second schedule: jump over the missed stretch instead of walking it.
  let guard = 0;
  while (cursor && cursor.getTime() <= now.getTime() && guard++ < MAX_DUE) {
    if (cursor.getTime() < cutoff) {
      missed++;
      latestMissed = cursor;
    } else onTime.push(cursor);
    cursor = nextFireAfter(spec, cursor);
  }
  if (cursor && cursor.getTime() <= now.getTime()) {
    // Still behind after MAX_DUE steps: the rest is missed too; continue from now.
    latestMissed = cursor;
    missed++;
    const inGrace = nextFireAfter(spec, new Date(cutoff));
    cursor = nextFireAfter(spec, now);
    if (inGrace && inGrace.getTime() <= now.getTime()) onTime.push(inGrace);
  }
  const fire = [...onTime];
  let skipped = missed;
  if (misfire === 'fire_once' && latestMissed) {
    fire.unshift(latestMissed);
    skipped--;
  }
  return { fire, skipped, next: cursor };
}
