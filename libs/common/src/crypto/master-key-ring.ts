import { hkdfSync } from 'node:crypto';

const ID_LABEL = 'platform/storage/master-key-id/v1';

/** A fingerprint of a master key (HKDF output, not the key), safe to store and log: names the key a value is sealed under. */
export function masterKeyId(masterKey: Buffer): string {
  return Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), ID_LABEL, 8)).toString('hex');
}

/**
 * The master keys a process holds (`MASTER_KEYS`, current first): the current one seals and signs
 * everything new; the others only open, verify or unwrap what was sealed before a rotation, until
 * `npm run admin -- reseal-secrets` has moved it all to the current key and they are removed.
 */
export class MasterKeyRing {
  readonly keys: readonly Buffer[];

  constructor(keys: readonly Buffer[]) {
    if (!keys.length) throw new Error('a master key ring needs at least one key');
    const seen = new Set<string>();
    // A key listed twice is held once: the first place counts.
    this.keys = keys.filter((key) => {
      const id = masterKeyId(key);
      if (seen.has(id)) return false;
      seen.add(id);
      return true;
    });
  }

  get current(): Buffer {
    return this.keys[0];
  }

  /** The keys besides the current one: what is sealed under them is re-sealed, then they can go. */
  get previous(): readonly Buffer[] {
    return this.keys.slice(1);
  }

  ids(): string[] {
    return this.keys.map(masterKeyId);
  }
}
