import type { VerifyKeyResponse } from '@platform/messaging';

interface Entry {
  result: VerifyKeyResponse;
  expiresAt: number;
}

/**
 * Verification results of API keys, kept a few seconds so authentication costs a map lookup
 * instead of a NATS round trip. Entries are keyed by a hash of the presented key (the key itself
 * is never kept), expire at the key's own expiry or the end of its rotation period if sooner, and
 * are dropped at once when the account service announces a revocation.
 */
export class KeyVerificationCache {
  private readonly entries = new Map<string, Entry>();
  private readonly hashesByKeyId = new Map<string, Set<string>>();
  private readonly revokedAt = new Map<string, number>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 50_000,
    private readonly now: () => number = Date.now,
  ) {}

  get(hash: string): VerifyKeyResponse | undefined {
    const entry = this.entries.get(hash);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.delete(hash, entry);
      return undefined;
    }
    return entry.result;
  }

  /**
   * `requestedAt` is when verification was asked for: a revocation announced after that moment
   * may have overtaken the answer, which is then used once but not kept.
   */
  set(hash: string, result: VerifyKeyResponse, requestedAt: number): void {
    const now = this.now();
    let expiresAt = now + this.ttlMs;
    if (result.valid) {
      const revoked = this.revokedAt.get(result.key.keyId);
      if (revoked !== undefined && revoked >= requestedAt) return;
      if (result.key.validUntil !== null) expiresAt = Math.min(expiresAt, result.key.validUntil);
      if (expiresAt <= now) return;
    }
    if (this.entries.size >= this.maxEntries) this.evictOldest();
    this.entries.set(hash, { result, expiresAt });
    if (result.valid) {
      const hashes = this.hashesByKeyId.get(result.key.keyId) ?? new Set<string>();
      hashes.add(hash);
      this.hashesByKeyId.set(result.key.keyId, hashes);
    }
  }

  drop(keyIds: readonly string[]): void {
    const now = this.now();
    for (const keyId of keyIds) {
      this.revokedAt.set(keyId, now);
      for (const hash of this.hashesByKeyId.get(keyId) ?? []) this.entries.delete(hash);
      this.hashesByKeyId.delete(keyId);
    }
    // Remembered only as long as an in-flight verification could still be answered.
    for (const [keyId, at] of this.revokedAt) if (at < now - 60_000) this.revokedAt.delete(keyId);
  }

  get size(): number {
    return this.entries.size;
  }

  private delete(hash: string, entry: Entry): void {
    this.entries.delete(hash);
    if (entry.result.valid) this.hashesByKeyId.get(entry.result.key.keyId)?.delete(hash);
  }

  private evictOldest(): void {
    // Map keeps insertion order: the first entries are the oldest.
    const drop = Math.ceil(this.maxEntries / 10);
    let n = 0;
    for (const [hash, entry] of this.entries) {
      this.delete(hash, entry);
      if (++n >= drop) break;
    }
  }
}
