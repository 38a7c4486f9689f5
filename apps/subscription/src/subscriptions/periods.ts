/**
 * Billing periods are calendar months in UTC. A period closed early (the operator's `end-period`,
 * or a test) is followed by one that ends at the next month boundary, so periods line up with
 * months again at once.
 */
export interface Period {
  start: Date;
  end: Date;
}

const monthStart = (at: Date): Date => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
const addMonth = (at: Date): Date => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));

/** The calendar month `at` falls in. */
export function periodAt(at: Date): Period {
  const start = monthStart(at);
  return { start, end: addMonth(start) };
}

/** The period after one that ended at `end`: from `end` to the next month boundary after it. */
export function periodAfter(end: Date): Period {
  return { start: end, end: addMonth(monthStart(end)) };
}

/** Whole seconds until `until`, at least 1 (a `Retry-After`). */
export function secondsUntil(until: Date, now = Date.now()): number {
  return Math.max(1, Math.ceil((until.getTime() - now) / 1000));
}
