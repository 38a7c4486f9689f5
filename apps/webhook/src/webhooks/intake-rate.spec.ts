import { describe, expect, it } from '@jest/globals';
import { IntakeRate } from './intake-rate.js';

describe('IntakeRate', () => {
  const clock = () => {
    let t = 1_000_000;
    return { now: () => t, advance: (ms: number) => (t += ms) };
  };

  it('is not in a burst while deliveries trickle in', () => {
    const c = clock();
    const rate = new IntakeRate(200, 250, c.now);
    for (let i = 0; i < 20; i++) {
      rate.note();
      c.advance(100);
    }
    expect(rate.inBurst()).toBe(false);
  });

  it('is in a burst at or above the rate, and stays so into the next window', () => {
    const c = clock();
    const rate = new IntakeRate(200, 250, c.now);
    for (let i = 0; i < 100; i++) {
      rate.note();
      c.advance(2);
    }
    expect(rate.inBurst()).toBe(true);
    c.advance(60);
    expect(rate.inBurst()).toBe(true);
  });

  it('ends the burst after a quiet window', () => {
    const c = clock();
    const rate = new IntakeRate(200, 250, c.now);
    for (let i = 0; i < 100; i++) {
      rate.note();
      c.advance(2);
    }
    c.advance(600);
    expect(rate.inBurst()).toBe(false);
  });
});
