import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { masterKeyId } from '../crypto/master-key-ring.js';
import { resolveMasterKeys } from './master-key.js';

const settings = (values: { MASTER_KEYS?: string; MASTER_KEY?: string; MASTER_KEYS_FILE?: string }) => ({
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

  it('reads the ring from MASTER_KEYS_FILE (a mounted secret) in production, and refuses a missing or empty file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'master-keys-'));
    const file = join(dir, 'master-keys');
    writeFileSync(file, `${b.toString('base64')}\n${a.toString('base64')}\n`);
    expect(resolveMasterKeys(settings({ MASTER_KEYS_FILE: file })).ids()).toEqual([masterKeyId(b), masterKeyId(a)]);
    // the environment wins over the file: a key set explicitly is never overridden by a mount
    expect(resolveMasterKeys(settings({ MASTER_KEY: a.toString('base64'), MASTER_KEYS_FILE: file })).ids()).toEqual([masterKeyId(a)]);
    expect(() => resolveMasterKeys(settings({ MASTER_KEYS_FILE: join(dir, 'missing') }))).toThrow(/MASTER_KEYS_FILE: cannot read .*missing \(ENOENT\)/);
    writeFileSync(file, '\n');
    expect(() => resolveMasterKeys(settings({ MASTER_KEYS_FILE: file }))).toThrow(/MASTER_KEYS_FILE: .* holds no key/);
    writeFileSync(file, 'c2hvcnQ=');
    expect(() => resolveMasterKeys(settings({ MASTER_KEYS_FILE: file }))).toThrow(/MASTER_KEYS_FILE \(.*\): entry 1 must be 32 bytes/);
  });
});
