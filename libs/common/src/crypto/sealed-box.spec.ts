import { randomBytes } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { MasterKeyRing } from './master-key-ring.js';
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

describe('SealedBox over a master key ring', () => {
  const oldKey = randomBytes(32);
  const newKey = randomBytes(32);

  it('opens what a previous key sealed, seals under the current one, and re-seals only what is stale', () => {
    const before = new SealedBox(oldKey, 'test/label/v1').seal('tenant-a', ['env', 'id-1'], 'hunter2');
    const rotating = new SealedBox(new MasterKeyRing([newKey, oldKey]), 'test/label/v1');
    expect(rotating.openDetailed('tenant-a', ['env', 'id-1'], before)).toEqual({ value: 'hunter2', stale: true });
    const resealed = rotating.reseal('tenant-a', ['env', 'id-1'], before);
    expect(resealed).toBeDefined();
    expect(rotating.reseal('tenant-a', ['env', 'id-1'], resealed!)).toBeUndefined();
    // once re-sealed, the new key alone opens it and the old key alone no longer does
    expect(new SealedBox(newKey, 'test/label/v1').open('tenant-a', ['env', 'id-1'], resealed!)).toBe('hunter2');
    expect(() => new SealedBox(oldKey, 'test/label/v1').open('tenant-a', ['env', 'id-1'], resealed!)).toThrow();
    // the binding still holds with every key of the ring
    expect(() => rotating.open('tenant-a', ['env', 'id-2'], before)).toThrow();
  });
});
