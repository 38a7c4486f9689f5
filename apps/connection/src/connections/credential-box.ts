import { SEALED_RECORDS, SealedBox, type MasterKeyRing, type SealedSecret } from '@platform/common';
import type { ConnectionRow, Credentials } from './connection.record.js';

/**
 * Connection credentials and PKCE verifiers at rest, sealed with the platform's one SealedBox
 * (per-tenant key under the master key) and bound to the environment and the record id, so a
 * ciphertext copied to another connection or tenant does not open.
 */
export class CredentialBox {
  private readonly credentials: SealedBox;
  private readonly verifiers: SealedBox;

  constructor(keys: MasterKeyRing | Buffer) {
    this.credentials = new SealedBox(keys, SEALED_RECORDS.connectionCredentials.label);
    this.verifiers = new SealedBox(keys, SEALED_RECORDS.oauthVerifiers.label);
  }

  seal(tenantId: string, environmentId: string, connectionId: string, credentials: Credentials): SealedSecret | null {
    const present = Object.fromEntries(Object.entries(credentials).filter(([, v]) => v !== undefined && v !== null));
    if (!Object.keys(present).length) return null;
    return this.credentials.seal(tenantId, [environmentId, connectionId], JSON.stringify(present));
  }

  open(row: Pick<ConnectionRow, 'tenant_id' | 'environment_id' | 'id' | 'secret_iv' | 'secret_ciphertext' | 'secret_tag'>): Credentials {
    if (!row.secret_iv || !row.secret_ciphertext || !row.secret_tag) return {};
    const json = this.credentials.open(row.tenant_id, [row.environment_id, row.id], {
      iv: row.secret_iv,
      ciphertext: row.secret_ciphertext,
      tag: row.secret_tag,
    });
    return JSON.parse(json) as Credentials;
  }

  sealVerifier(tenantId: string, environmentId: string, stateId: string, verifier: string): SealedSecret {
    return this.verifiers.seal(tenantId, [environmentId, stateId], verifier);
  }

  openVerifier(tenantId: string, environmentId: string, stateId: string, sealed: SealedSecret): string {
    return this.verifiers.open(tenantId, [environmentId, stateId], sealed);
  }
}
