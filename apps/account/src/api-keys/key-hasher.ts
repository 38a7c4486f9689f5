import { createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { SEALED_RECORDS, SealedBox, type MasterKeyRing } from '@platform/common';
import type { EntityManager } from 'typeorm';
import { hashKeysRepository } from './hash-keys.repository.js';

const NAME = 'api-key-hash';
const PLATFORM = 'platform';

/**
 * Only a keyed hash of an API key is stored: HMAC-SHA256 with a secret of its own, so a copy of
 * the database alone cannot be used to test guesses. The secret is stored in account.hash_keys,
 * sealed under the master key ring: a master key rotation re-seals it (`reseal-secrets`) and
 * every key keeps verifying. Use loadKeyHasher.
 */
export class KeyHasher {
  constructor(private readonly secret: Buffer) {}

  hash(key: string): Buffer {
    return createHmac('sha256', this.secret).update(key).digest();
  }
}

/**
 * The hasher with the stored secret, stored first when there is none. Before the secret was
 * stored it was derived from the master key, so the first start keeps that one (from the current
 * master key) and the keys issued before keep verifying; a new installation gets a random one.
 */
export async function loadKeyHasher(m: EntityManager, ring: MasterKeyRing): Promise<KeyHasher> {
  const box = new SealedBox(ring, SEALED_RECORDS.apiKeyHashKey.label);
  let sealed = await hashKeysRepository.find(m, NAME);
  if (!sealed) {
    const secret = (await hashKeysRepository.anyApiKeyIssued(m))
      ? Buffer.from(hkdfSync('sha256', ring.current, Buffer.alloc(0), 'platform/api-key-hash/v1', 32))
      : randomBytes(32);
    await hashKeysRepository.insertIfAbsent(m, NAME, box.seal(PLATFORM, [NAME], secret.toString('base64')));
    sealed = await hashKeysRepository.find(m, NAME);
    if (!sealed) throw new Error('the API key hash key vanished after it was stored');
  }
  return new KeyHasher(Buffer.from(box.open(PLATFORM, [NAME], sealed), 'base64'));
}
