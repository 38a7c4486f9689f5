import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** AES-256-GCM as node:crypto provides it: a random 96-bit IV per encryption, a 128-bit tag. */
export interface Sealed {
  iv: Buffer;
  ciphertext: Buffer;
  tag: Buffer;
}

const ALGORITHM = 'aes-256-gcm';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** Raised when a ciphertext, its tag or its additional data do not match: never says more. */
export class DecryptionError extends Error {
  constructor(what: string) {
    super(`${what} could not be decrypted (wrong key, or the data was altered or moved)`);
    this.name = 'DecryptionError';
  }
}

export function seal(key: Buffer, plaintext: Buffer, aad: Buffer): Sealed {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(ALGORITHM, key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(aad);
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return { iv, ciphertext, tag: cipher.getAuthTag() };
}

export function open(key: Buffer, sealed: Sealed, aad: Buffer, what: string): Buffer {
  try {
    const decipher = createDecipheriv(ALGORITHM, key, sealed.iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(aad);
    decipher.setAuthTag(sealed.tag);
    return Buffer.concat([decipher.update(sealed.ciphertext), decipher.final()]);
  } catch {
    throw new DecryptionError(what);
  }
}

/**
 * Additional authenticated data binds a ciphertext to its row: a secret's value decrypts only as
 * that tenant's, that environment's secret of that name; a wrapped data key only as that
 * tenant's and environment's key with that id. Copying a ciphertext to another row fails.
 */
export function secretAad(tenantId: string, environmentId: string, name: string): Buffer {
  return Buffer.from(`platform/storage/secret/v1\0${tenantId}\0${environmentId}\0${name}`, 'utf8');
}

export function dataKeyAad(tenantId: string, environmentId: string, keyId: string): Buffer {
  return Buffer.from(`platform/storage/data-key/v1\0${tenantId}\0${environmentId}\0${keyId}`, 'utf8');
}
