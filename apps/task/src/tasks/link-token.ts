import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { MasterKeyRing } from '@platform/common';
import type { TaskDecision } from '@platform/messaging';

/** What a signed task link carries: whose task, which one, the decisions it may make, until when. */
export interface LinkClaims {
  /** tenant, environment, scope (customer) of the task */
  t: string;
  e: string;
  s: string | null;
  /** the task's id */
  k: string;
  /** the link's id: the single-use record */
  l: string;
  d: TaskDecision[];
  /** expiry, Unix seconds */
  x: number;
}

/**
 * Signs and verifies task links: `<base64url(JSON claims)>.<base64url(HMAC-SHA256)>`, the HMAC
 * under a key derived (HKDF-SHA256) from a master key for this purpose only. Links are signed
 * with the ring's current key and verified with any of its keys, so links sent before a rotation
 * keep working while the previous key is in the ring. Verification uses a constant-time
 * comparison. Single use and revocation live in the database (the link's row).
 */
export class LinkSigner {
  /** Current first. */
  private readonly keys: Buffer[];

  constructor(keys: MasterKeyRing | Buffer) {
    const ring = keys instanceof MasterKeyRing ? keys : new MasterKeyRing([keys]);
    this.keys = ring.keys.map((masterKey) => Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), 'task-links/v1', 32)));
  }

  sign(claims: LinkClaims): string {
    const body = Buffer.from(JSON.stringify(claims)).toString('base64url');
    return `${body}.${this.mac(this.keys[0], body).toString('base64url')}`;
  }

  /** The claims of a token signed here, or undefined (malformed, tampered, or signed with another key). Expiry is the caller's. */
  verify(token: string): LinkClaims | undefined {
    const parts = token.split('.');
    if (parts.length !== 2 || !parts[0] || !parts[1]) return undefined;
    const given = Buffer.from(parts[1], 'base64url');
    const body = parts[0];
    const signed = this.keys.some((key) => {
      const expected = this.mac(key, body);
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
    if (!signed) return undefined;
    try {
      const claims = JSON.parse(Buffer.from(parts[0], 'base64url').toString('utf8')) as LinkClaims;
      return typeof claims.k === 'string' && typeof claims.l === 'string' && typeof claims.x === 'number' && Array.isArray(claims.d) ? claims : undefined;
    } catch {
      return undefined;
    }
  }

  private mac(key: Buffer, body: string): Buffer {
    return createHmac('sha256', key).update(body).digest();
  }
}
