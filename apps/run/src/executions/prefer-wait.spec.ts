import { describe, expect, it } from '@jest/globals';
import { preferredWaitSeconds } from './prefer-wait.js';

describe('preferredWaitSeconds', () => {
  it('reads wait among other preferences, with or without quotes and parameters', () => {
    expect(preferredWaitSeconds('wait=10')).toBe(10);
    expect(preferredWaitSeconds('respond-async, Wait = "25"')).toBe(25);
    expect(preferredWaitSeconds('return=minimal, wait=0;x=y')).toBe(0);
  });

  it('ignores a missing or unreadable wait', () => {
    for (const header of [undefined, '', 'respond-async', 'wait', 'wait=', 'wait=-1', 'wait=1.5', 'wait=ten', 'wait=1e3', 'wait=9999999999'])
      expect(preferredWaitSeconds(header)).toBeUndefined();
  });
});
