import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/** A sealed value as stored: three bytea columns (or one JSON object of base64 strings). */
export interface SealedSecret {
  iv: Buffer;
  ciphertext: Buffer;
  tag: Buffer;
}

/**
 * Secrets at rest: AES-256-GCM under a key derived (HKDF-SHA256) from the master key with the
 * tenant id as salt and a per-purpose label, so each tenant's secrets are under their own key and
 * one feature's keys never open another's. `bind` (tenant, environment, record id…) is the
 * additional data: a ciphertext copied to another record or tenant does not open.
 *
 * Webhook secrets (label `platform/webhook/secret-key/v1`, bound to environment and webhook id)
 * and notification channel credentials are sealed with it.
 */
export class SealedBox {
  constructor(
    private readonly masterKey: Buffer,
    private readonly label: string,
  ) {}

  seal(tenantId: string, bind: readonly string[], secret: string): SealedSecret {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key(tenantId), iv);
    cipher.setAAD(this.aad(tenantId, bind));
    const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return { iv, ciphertext, tag: cipher.getAuthTag() };
  }

  open(tenantId: string, bind: readonly string[], sealed: SealedSecret): string {
    const decipher = createDecipheriv('aes-256-gcm', this.key(tenantId), sealed.iv);
    decipher.setAAD(this.aad(tenantId, bind));
    decipher.setAuthTag(sealed.tag);
    return Buffer.concat([decipher.update(sealed.ciphertext), decipher.final()]).toString('utf8');
  }

  private key(tenantId: string): Buffer {
    return Buffer.from(hkdfSync('sha256', this.masterKey, Buffer.from(tenantId, 'utf8'), this.label, 32));
  }

  private aad(tenantId: string, bind: readonly string[]): Buffer {
    return Buffer.from([this.label, tenantId, ...bind].join('\0'), 'utf8');
  }
}
