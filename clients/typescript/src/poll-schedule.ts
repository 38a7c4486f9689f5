/** The first pause between two polls of a run, in ms: a one-step run ends within a few ms. */
export const FIRST_POLL_INTERVAL = 5;

/**
 * The pause before the next poll of a run: the previous one doubled (5, 10, 20, 40 … ms) and capped
 * at `max`. Short runs are seen as finished a few ms after their end, long ones cost few requests.
 */
export function nextPollInterval(previous: number | undefined, max: number): number {
  return Math.min(previous === undefined ? FIRST_POLL_INTERVAL : previous * 2, max);
}
