import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { MasterKeyRing } from './master-key-ring.js';

/** A sealed value as stored: three bytea columns (or one JSON object of base64 strings). */
export interface SealedSecret {
  iv: Buffer;
  ciphertext: Buffer;
  tag: Buffer;
}

/** What a sealed value opened to, and whether it should be sealed anew under the current key. */
export interface OpenedSecret {
  value: string;
  /** Sealed under a previous key of the ring: `reseal-secrets` moves it to the current one. */
  stale: boolean;
}

/**
 * Secrets at rest: AES-256-GCM under a key derived (HKDF-SHA256) from the master key with the
 * tenant id as salt and a per-purpose label, so each tenant's secrets are under their own key and
 * one feature's keys never open another's. `bind` (tenant, environment, record id…) is the
 * additional data: a ciphertext copied to another record or tenant does not open.
 *
 * Sealing uses the ring's current master key; opening tries each key of the ring, current first
 * (GCM's tag tells a wrong key apart), so values sealed before a rotation keep opening.
 */
export class SealedBox {
  private readonly ring: MasterKeyRing;

  constructor(
    keys: MasterKeyRing | Buffer,
    private readonly label: string,
  ) {
    this.ring = keys instanceof MasterKeyRing ? keys : new MasterKeyRing([keys]);
  }

  seal(tenantId: string, bind: readonly string[], secret: string): SealedSecret {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key(this.ring.current, tenantId), iv);
    cipher.setAAD(this.aad(tenantId, bind));
    const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return { iv, ciphertext, tag: cipher.getAuthTag() };
  }

  open(tenantId: string, bind: readonly string[], sealed: SealedSecret): string {
    return this.openDetailed(tenantId, bind, sealed).value;
  }

  /** Opens with whichever key of the ring sealed it; throws when none did (or the value was altered or moved). */
  openDetailed(tenantId: string, bind: readonly string[], sealed: SealedSecret): OpenedSecret {
    let failure: unknown;
    for (const [index, masterKey] of this.ring.keys.entries()) {
      try {
        const decipher = createDecipheriv('aes-256-gcm', this.key(masterKey, tenantId), sealed.iv);
        decipher.setAAD(this.aad(tenantId, bind));
        decipher.setAuthTag(sealed.tag);
        const value = Buffer.concat([decipher.update(sealed.ciphertext), decipher.final()]).toString('utf8');
        return { value, stale: index > 0 };
      } catch (error) {
        failure = error;
      }
    }
    throw failure;
  }

  /** The value sealed anew under the current key when a previous key sealed it; undefined when it is current already. */
  reseal(tenantId: string, bind: readonly string[], sealed: SealedSecret): SealedSecret | undefined {
    const opened = this.openDetailed(tenantId, bind, sealed);
    return opened.stale ? this.seal(tenantId, bind, opened.value) : undefined;
  }

  private key(masterKey: Buffer, tenantId: string): Buffer {
    return Buffer.from(hkdfSync('sha256', masterKey, Buffer.from(tenantId, 'utf8'), this.label, 32));
  }

  private aad(tenantId: string, bind: readonly string[]): Buffer {
    return Buffer.from([this.label, tenantId, ...bind].join('\0'), 'utf8');
  }
}
