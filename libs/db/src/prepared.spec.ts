import { describe, expect, it } from '@jest/globals';
import { prepared } from './prepared.js';

describe('prepared', () => {
  it('keeps a name and its text, and accepts the same definition twice', () => {
    expect(prepared('spec.one', 'select 1')).toEqual({ name: 'spec.one', text: 'select 1' });
    expect(() => prepared('spec.one', 'select 1')).not.toThrow();
  });

  it('refuses a name reused for another text, which PostgreSQL would reject on a connection', () => {
    prepared('spec.two', 'select 2');
    expect(() => prepared('spec.two', 'select 3')).toThrow(/already defined/);
  });

  it.each(['', 'Upper', 'has space', `x${'y'.repeat(63)}`])('refuses the name %p', (name) => {
    expect(() => prepared(name, 'select 1')).toThrow(/identifier/);
  });
});
