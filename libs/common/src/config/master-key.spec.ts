import { randomBytes } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { masterKeyId } from '../crypto/master-key-ring.js';
import { resolveMasterKeys } from './master-key.js';

const settings = (values: { MASTER_KEYS?: string; MASTER_KEY?: string }) => ({
  MASTER_KEY: '',
  MASTER_KEY_FILE: '/nonexistent/master.key',
  NODE_ENV: 'production',
  ...values,
});

describe('resolveMasterKeys', () => {
  const a = randomBytes(32);
  const b = randomBytes(32);

  it('reads MASTER_KEYS current first, and MASTER_KEY alone as a one-key ring', () => {
    const ring = resolveMasterKeys(settings({ MASTER_KEYS: ` ${b.toString('base64')} , ${a.toString('base64')}` }));
    expect(ring.ids()).toEqual([masterKeyId(b), masterKeyId(a)]);
    expect(ring.current.equals(b)).toBe(true);
    expect(resolveMasterKeys(settings({ MASTER_KEY: a.toString('base64') })).ids()).toEqual([masterKeyId(a)]);
    // MASTER_KEY left in place while MASTER_KEYS is introduced: fine when it is one of the ring
    expect(
      resolveMasterKeys(settings({ MASTER_KEYS: `${b.toString('base64')},${a.toString('base64')}`, MASTER_KEY: a.toString('base64') })).ids(),
    ).toHaveLength(2);
  });

  it('stops start-up with a clear message for a bad entry, a disagreeing MASTER_KEY, or no key in production', () => {
    expect(() => resolveMasterKeys(settings({ MASTER_KEYS: `${a.toString('base64')},c2hvcnQ=` }))).toThrow(/MASTER_KEYS: entry 2 must be 32 bytes/);
    expect(() => resolveMasterKeys(settings({ MASTER_KEYS: a.toString('base64'), MASTER_KEY: b.toString('base64') }))).toThrow(
      /MASTER_KEY must be one of MASTER_KEYS/,
    );
    expect(() => resolveMasterKeys(settings({}))).toThrow(/MASTER_KEYS: required in production/);
  });
});
