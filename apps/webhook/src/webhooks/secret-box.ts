import { SEALED_RECORDS, SealedBox, type MasterKeyRing, type SealedSecret } from '@platform/common';

export type { SealedSecret };

/**
 * Webhook secrets at rest: the platform's SealedBox (AES-256-GCM, a per-tenant key from the master
 * key) under the webhook label, bound to tenant, environment and webhook, so a copied ciphertext
 * does not open. Secrets sealed before it moved to libs/common open unchanged.
 */
export class SecretBox {
  private readonly box: SealedBox;

  constructor(keys: MasterKeyRing | Buffer) {
    this.box = new SealedBox(keys, SEALED_RECORDS.webhookSecrets.label);
  }

  seal(tenantId: string, environmentId: string, webhookId: string, secret: string): SealedSecret {
    return this.box.seal(tenantId, [environmentId, webhookId], secret);
  }

  open(tenantId: string, environmentId: string, webhookId: string, sealed: SealedSecret): string {
    return this.box.open(tenantId, [environmentId, webhookId], sealed);
  }
}
