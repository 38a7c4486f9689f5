import { randomBytes } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { SealedBox } from './sealed-box.js';

describe('SealedBox', () => {
  const box = new SealedBox(randomBytes(32), 'test/label/v1');

  it('opens what it sealed, only for the same tenant, binding and label', () => {
    const sealed = box.seal('tenant-a', ['env', 'id-1'], 'hunter2');
    expect(sealed.ciphertext.toString('utf8')).not.toContain('hunter2');
    expect(box.open('tenant-a', ['env', 'id-1'], sealed)).toBe('hunter2');
    expect(() => box.open('tenant-b', ['env', 'id-1'], sealed)).toThrow();
    expect(() => box.open('tenant-a', ['env', 'id-2'], sealed)).toThrow();
    expect(() => new SealedBox(randomBytes(32), 'test/label/v1').open('tenant-a', ['env', 'id-1'], sealed)).toThrow();
  });
});
