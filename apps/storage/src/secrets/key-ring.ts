import { hkdfSync } from 'node:crypto';
import { masterKeyId } from '@platform/common';

export { masterKeyId };

/** Version of the HKDF label the key-encryption key is derived with; stored with each data key. */
export const KEK_VERSION = 1;

const kekLabel = (version: number) => `platform/storage/data-key-kek/v${version}`;

export interface MasterKeyEntry {
  /** A fingerprint of the master key (HKDF output, not the key): stored with each wrapped data key. */
  id: string;
  /** The key-encryption key derived from the master key. */
  kek: Buffer;
}

function derive(masterKey: Buffer, label: string, bytes: number): Buffer {
  return Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), label, bytes));
}

function entry(masterKey: Buffer): MasterKeyEntry {
  return { id: masterKeyId(masterKey), kek: derive(masterKey, kekLabel(KEK_VERSION), 32) };
}

/**
 * The key-encryption keys of the master keys this process holds: the current one wraps every new
 * data key; the ring's previous keys (MASTER_KEYS after the first, and the older
 * MASTER_KEY_PREVIOUS) only unwrap data keys not yet re-wrapped. Each wrapped data key names
 * the master key it was wrapped with, so no trial decryption is needed.
 */
export class KeyRing {
  readonly current: MasterKeyEntry;
  private readonly byId = new Map<string, MasterKeyEntry>();

  constructor(current: Buffer, previous: Buffer[] = []) {
    this.current = entry(current);
    for (const key of previous) {
      const e = entry(key);
      this.byId.set(e.id, e);
    }
    this.byId.set(this.current.id, this.current);
  }

  /** The key-encryption key for a stored master key id, if this process holds that master key. */
  kek(masterKeyId: string, kekVersion: number): Buffer | undefined {
    if (kekVersion !== KEK_VERSION) return undefined;
    return this.byId.get(masterKeyId)?.kek;
  }

  /** Ids of the master keys held besides the current one: data keys under them are re-wrapped. */
  previousIds(): string[] {
    return [...this.byId.keys()].filter((id) => id !== this.current.id);
  }
}
