import { SEALED_RECORDS, SealedBox, type MasterKeyRing, type SealedSecret } from '@platform/common';
import type { ProviderRow } from './provider.record.js';

/** Provider API keys at rest: the shared SealedBox under this label, bound to the environment and the provider's id. */
export class ProviderSecretBox {
  private readonly box: SealedBox;

  constructor(keys: MasterKeyRing | Buffer) {
    this.box = new SealedBox(keys, SEALED_RECORDS.providerKeys.label);
  }

  seal(tenantId: string, environmentId: string, providerId: string, apiKey: string): SealedSecret {
    return this.box.seal(tenantId, [environmentId, providerId], apiKey);
  }

  open(row: Pick<ProviderRow, 'tenant_id' | 'environment_id' | 'id' | 'secret_iv' | 'secret_ciphertext' | 'secret_tag'>): string {
    if (!row.secret_iv || !row.secret_ciphertext || !row.secret_tag) return '';
    return this.box.open(row.tenant_id, [row.environment_id, row.id], { iv: row.secret_iv, ciphertext: row.secret_ciphertext, tag: row.secret_tag });
  }
}
