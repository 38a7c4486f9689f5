import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

export interface SealedSecret {
  iv: Buffer;
  ciphertext: Buffer;
  tag: Buffer;
}

const LABEL = 'platform/webhook/secret-key/v1';

/**
 * Webhook secrets at rest: AES-256-GCM under a key derived (HKDF-SHA256) from the master key with
 * the tenant id as salt, so each tenant's secrets are under their own key; the additional data
 * binds a ciphertext to its tenant, environment and webhook, so a copied ciphertext does not open.
 */
export class SecretBox {
  constructor(private readonly masterKey: Buffer) {}

  seal(tenantId: string, environmentId: string, webhookId: string, secret: string): SealedSecret {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key(tenantId), iv);
    cipher.setAAD(aad(tenantId, environmentId, webhookId));
    const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return { iv, ciphertext, tag: cipher.getAuthTag() };
  }

  open(tenantId: string, environmentId: string, webhookId: string, sealed: SealedSecret): string {
    const decipher = createDecipheriv('aes-256-gcm', this.key(tenantId), sealed.iv);
    decipher.setAAD(aad(tenantId, environmentId, webhookId));
    decipher.setAuthTag(sealed.tag);
    return Buffer.concat([decipher.update(sealed.ciphertext), decipher.final()]).toString('utf8');
  }

  private key(tenantId: string): Buffer {
    return Buffer.from(hkdfSync('sha256', this.masterKey, Buffer.from(tenantId, 'utf8'), LABEL, 32));
  }
}

const aad = (tenantId: string, environmentId: string, webhookId: string) => Buffer.from(`${LABEL}\0${tenantId}\0${environmentId}\0${webhookId}`, 'utf8');
