import { randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { ConfigError, ServiceConfig } from '@platform/common';
import { DataKeysService, UnknownMasterKeyError } from './data-keys.service.js';
import { KeyRing, KEK_VERSION, masterKeyId } from './key-ring.js';
import { DecryptionError, dataKeyAad, open, seal, secretAad } from './secret-cipher.js';
import { SecretsConfig, buildKeyRing } from './secrets.config.js';

const tenant = randomUUID();
const env = randomUUID();

describe('secret encryption', () => {
  it('round-trips a value under AES-256-GCM with a fresh IV each time', () => {
    const key = randomBytes(32);
    const aad = secretAad(tenant, env, 'API_KEY');
    const one = seal(key, Buffer.from('s3cr3t'), aad);
    const two = seal(key, Buffer.from('s3cr3t'), aad);
    expect(one.iv).toHaveLength(12);
    expect(one.tag).toHaveLength(16);
    expect(one.iv.equals(two.iv)).toBe(false);
    expect(one.ciphertext.includes(Buffer.from('s3cr3t'))).toBe(false);
    expect(open(key, one, aad, 'secret').toString()).toBe('s3cr3t');
  });

  it('refuses a ciphertext moved to another row, altered, or opened with another key', () => {
    const key = randomBytes(32);
    const sealed = seal(key, Buffer.from('value'), secretAad(tenant, env, 'A'));
    expect(() => open(key, sealed, secretAad(tenant, env, 'B'), 'secret')).toThrow(DecryptionError);
    expect(() => open(key, sealed, secretAad(randomUUID(), env, 'A'), 'secret')).toThrow(DecryptionError);
    const altered = { ...sealed, ciphertext: Buffer.from(sealed.ciphertext) };
    altered.ciphertext[0] ^= 1;
    expect(() => open(key, altered, secretAad(tenant, env, 'A'), 'secret')).toThrow(DecryptionError);
    expect(() => open(randomBytes(32), sealed, secretAad(tenant, env, 'A'), 'secret')).toThrow(/could not be decrypted/);
  });

  it('names master keys by a fingerprint that is not the key and differs per key', () => {
    const master = randomBytes(32);
    const id = masterKeyId(master);
    expect(id).toMatch(/^[0-9a-f]{16}$/);
    expect(masterKeyId(master)).toBe(id);
    expect(masterKeyId(randomBytes(32))).not.toBe(id);
    expect(master.toString('hex')).not.toContain(id);
  });

  it('re-wraps a data key under the new master key without changing it', () => {
    const oldMaster = randomBytes(32);
    const newMaster = randomBytes(32);
    const before = new DataKeysService(new KeyRing(oldMaster));
    const dataKey = randomBytes(32);
    const keyId = randomUUID();
    const wrapped = before.wrap(tenant, env, keyId, dataKey);
    expect(wrapped.master_key_id).toBe(masterKeyId(oldMaster));
    expect(wrapped.kek_version).toBe(KEK_VERSION);

    // Only the new key: the old wrapping cannot be read, and says which key it needs.
    expect(() => new DataKeysService(new KeyRing(newMaster)).unwrap(wrapped)).toThrow(UnknownMasterKeyError);

    const rotating = new DataKeysService(new KeyRing(newMaster, [oldMaster]));
    expect(rotating.previousMasterKeyIds()).toEqual([masterKeyId(oldMaster)]);
    expect(rotating.unwrap(wrapped).equals(dataKey)).toBe(true);
    const rewrapped = rotating.rewrap(wrapped);
    expect(rewrapped.master_key_id).toBe(masterKeyId(newMaster));
    expect(rewrapped.id).toBe(keyId);
    expect(new DataKeysService(new KeyRing(newMaster)).unwrap(rewrapped).equals(dataKey)).toBe(true);
    // A wrapped key belongs to its tenant, environment and id.
    expect(() => rotating.unwrap({ ...rewrapped, tenant_id: randomUUID() })).toThrow(DecryptionError);
    expect(dataKeyAad(tenant, env, keyId).toString()).toContain(keyId);
  });

  it('stops start-up with a clear message when MASTER_KEY_PREVIOUS is not a 32-byte key', () => {
    const service = Object.assign(new ServiceConfig(), { MASTER_KEY: randomBytes(32).toString('base64') });
    const bad = Object.assign(new SecretsConfig(), { MASTER_KEY_PREVIOUS: Buffer.from('short').toString('base64') });
    expect(() => buildKeyRing(service, bad)).toThrow(ConfigError);
    expect(() => buildKeyRing(service, bad)).toThrow(/MASTER_KEY_PREVIOUS: entry 1 must be 32 bytes/);
    const two = Object.assign(new SecretsConfig(), { MASTER_KEY_PREVIOUS: `${randomBytes(32).toString('base64')}, ${randomBytes(32).toString('base64')}` });
    expect(buildKeyRing(service, two).previousIds()).toHaveLength(2);
  });
});
