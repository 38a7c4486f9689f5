import { createHmac, hkdfSync } from 'node:crypto';

/**
 * Only a keyed hash of an API key is stored: HMAC-SHA256 with a secret derived from the master
 * key, so a copy of the database alone cannot be used to test guesses. The derivation label is
 * versioned, so a new scheme can live beside the old one while keys are migrated.
 */
export class KeyHasher {
  private readonly secret: Buffer;

  constructor(masterKey: Buffer) {
    this.secret = Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), 'platform/api-key-hash/v1', 32));
  }

  hash(key: string): Buffer {
    return createHmac('sha256', this.secret).update(key).digest();
  }
}
