import { describe, expect, it } from '@jest/globals';
import { FIRST_POLL_INTERVAL, nextPollInterval } from '../src/poll-schedule.js';

/** The first `count` pauses runs.wait makes while a run is not yet final. */
function schedule(count: number, max: number): number[] {
  const pauses: number[] = [];
  let interval: number | undefined;
  for (let i = 0; i < count; i += 1) pauses.push((interval = nextPollInterval(interval, max)));
  return pauses;
}

describe('the pauses between polls of a run', () => {
  it('start at 5 ms, so a one-step run is seen as finished a few ms after its end', () => {
    expect(FIRST_POLL_INTERVAL).toBe(5);
    expect(schedule(1, 1000)).toEqual([5]);
  });

  it('double after every poll and stop growing at the cap', () => {
    expect(schedule(10, 1000)).toEqual([5, 10, 20, 40, 80, 160, 320, 640, 1000, 1000]);
    expect(schedule(4, 25)).toEqual([5, 10, 20, 25]);
  });

  it('never exceed a cap below the first pause', () => {
    expect(schedule(3, 2)).toEqual([2, 2, 2]);
  });
});
