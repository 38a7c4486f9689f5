import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { newId } from '@platform/common';
import type { TenantContext } from '@platform/db';
import type { EntityManager } from 'typeorm';
import { KeyRing, KEK_VERSION } from './key-ring.js';
import { DecryptionError, dataKeyAad, open, seal } from './secret-cipher.js';
import type { DataKeyRow } from './secret.record.js';
import { dataKeysRepository } from './secrets.repository.js';

export interface DataKey {
  id: string;
  key: Buffer;
}

/** The master key a data key names is not held by this process (MASTER_KEY_PREVIOUS missing?). */
export class UnknownMasterKeyError extends Error {
  constructor(masterKeyId: string) {
    super(`data key is wrapped by master key ${masterKeyId}, which this service does not hold; set MASTER_KEY_PREVIOUS`);
    this.name = 'UnknownMasterKeyError';
  }
}

/**
 * Envelope encryption: each tenant environment has one data key (32 random bytes) that encrypts
 * its secrets; only its wrapped form is stored, sealed with AES-256-GCM under a key-encryption
 * key derived from a master key. Rotating the master key re-wraps data keys, never secrets.
 */
@Injectable()
export class DataKeysService {
  constructor(private readonly ring: KeyRing) {}

  /** The tenant environment's data key, created on first use. Runs inside the caller's tenant transaction. */
  async forWriting(m: EntityManager, ctx: TenantContext): Promise<DataKey> {
    const existing = await dataKeysRepository.find(m);
    if (existing) return { id: existing.id, key: this.unwrap(existing) };
    const key = randomBytes(32);
    const created = await dataKeysRepository.insert(m, this.wrap(ctx.tenantId, ctx.environmentId, newId(), key));
    if (created) return { id: created.id, key };
    // Another request created it between our read and insert: use theirs.
    const winner = await dataKeysRepository.find(m);
    if (!winner) throw new Error('data key vanished after a conflicting insert');
    return { id: winner.id, key: this.unwrap(winner) };
  }

  async byId(m: EntityManager, id: string): Promise<DataKey | undefined> {
    const row = await dataKeysRepository.find(m, id);
    return row ? { id: row.id, key: this.unwrap(row) } : undefined;
  }

  unwrap(row: DataKeyRow): Buffer {
    const kek = this.ring.kek(row.master_key_id, row.kek_version);
    if (!kek) throw new UnknownMasterKeyError(row.master_key_id);
    return open(kek, { iv: row.wrap_iv, ciphertext: row.wrapped_key, tag: row.wrap_tag }, dataKeyAad(row.tenant_id, row.environment_id, row.id), 'data key');
  }

  /** A data key sealed under the current master key, ready to store. */
  wrap(tenantId: string, environmentId: string, id: string, key: Buffer): DataKeyRow {
    const sealed = seal(this.ring.current.kek, key, dataKeyAad(tenantId, environmentId, id));
    return {
      tenant_id: tenantId,
      environment_id: environmentId,
      id,
      wrap_iv: sealed.iv,
      wrapped_key: sealed.ciphertext,
      wrap_tag: sealed.tag,
      master_key_id: this.ring.current.id,
      kek_version: KEK_VERSION,
    };
  }

  /** The same data key, re-wrapped under the current master key (its id and value unchanged). */
  rewrap(row: DataKeyRow): DataKeyRow {
    return this.wrap(row.tenant_id, row.environment_id, row.id, this.unwrap(row));
  }

  currentMasterKeyId(): string {
    return this.ring.current.id;
  }

  previousMasterKeyIds(): string[] {
    return this.ring.previousIds();
  }
}

export { DecryptionError };
