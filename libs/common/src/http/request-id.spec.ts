import { describe, expect, it } from '@jest/globals';
import { resolveRequestId } from './request-id.js';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('resolveRequestId', () => {
  it.each(['abc', 'A-b_c.9', '0', 'x'.repeat(128), '3f2b9c1e-8d4a-4f6b-9a7e-1c2d3e4f5a6b'])('keeps the valid id %s', (id) => {
    expect(resolveRequestId(id)).toBe(id);
  });

  it.each([
    ['with a space', 'abc def'],
    ['129 characters long', 'x'.repeat(129)],
    ['empty', ''],
    ['with unicode', 'réq-1'],
    ['with a newline', 'abc\ndef'],
    ['with a slash', 'a/b'],
  ])('replaces an id %s with a UUID', (_label, id) => {
    const resolved = resolveRequestId(id);
    expect(resolved).not.toBe(id);
    expect(resolved).toMatch(UUID_V4);
  });

  it('makes a UUID when there is no header', () => {
    expect(resolveRequestId(undefined)).toMatch(UUID_V4);
  });

  it('makes a different UUID each time', () => {
    expect(resolveRequestId(undefined)).not.toBe(resolveRequestId(undefined));
  });

  it('uses the first value of a repeated header', () => {
    expect(resolveRequestId(['first-id', 'second-id'])).toBe('first-id');
  });

  it('replaces a repeated header whose first value is invalid', () => {
    expect(resolveRequestId(['bad id', 'good-id'])).toMatch(UUID_V4);
    expect(resolveRequestId([])).toMatch(UUID_V4);
  });
});
