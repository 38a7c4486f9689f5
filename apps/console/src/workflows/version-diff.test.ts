import { describe, expect, it } from 'vitest';
import { lineDiff } from './version-diff';

describe('lineDiff', () => {
  it('marks the lines removed and added between two definitions, the rest the same', () => {
    const before = { name: 'refund', steps: [{ id: 'a', type: 'transform' }] };
    const after = { name: 'refund', steps: [{ id: 'a', type: 'approval' }] };
    const changed = lineDiff(before, after).filter((l) => l.kind !== 'same');
    expect(changed).toEqual([
      { kind: 'removed', text: '      "type": "transform"' },
      { kind: 'added', text: '      "type": "approval"' },
    ]);
  });

  it('finds nothing to mark in equal values', () => {
    expect(lineDiff({ a: 1 }, { a: 1 }).every((l) => l.kind === 'same')).toBe(true);
  });
});
