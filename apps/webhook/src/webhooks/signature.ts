import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** Standard Webhooks (standardwebhooks.com): timestamps further than this from now are refused. */
export const TIMESTAMP_TOLERANCE_SECONDS = 5 * 60;

const SECRET_PREFIX = 'whsec_';

/** A new signing secret: `whsec_` + base64 of 32 random bytes (the bytes are the HMAC key). */
export function newSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

/** The HMAC key of a `whsec_` secret: its base64 part decoded. */
export function secretKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
}

/** `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`, as a sender computes it. */
export function sign(secret: string, id: string, timestamp: number | string, body: Buffer | string): string {
  const mac = createHmac('sha256', secretKey(secret)).update(`${id}.${timestamp}.`).update(body).digest('base64');
  return `v1,${mac}`;
}

export type VerifyResult = { ok: true } | { ok: false; reason: string };

/**
 * Checks the three Standard Webhooks headers against the raw body. The signature header may list
 * several space-separated signatures (during a sender's key rotation); one matching `v1` suffices.
 * Comparison is constant-time.
 */
export function verifyStandardWebhook(
  secret: string,
  headers: { id?: string; timestamp?: string; signature?: string },
  body: Buffer,
  nowSeconds = Math.floor(Date.now() / 1000),
): VerifyResult {
  const { id, timestamp, signature } = headers;
  if (!id || !timestamp || !signature) return { ok: false, reason: 'missing webhook-id, webhook-timestamp or webhook-signature header' };
  if (!/^\d{1,12}$/.test(timestamp)) return { ok: false, reason: 'webhook-timestamp is not a Unix time in seconds' };
  if (Math.abs(nowSeconds - Number(timestamp)) > TIMESTAMP_TOLERANCE_SECONDS)
    return { ok: false, reason: 'webhook-timestamp is outside the 5-minute tolerance' };
  const expected = Buffer.from(sign(secret, id, timestamp, body).slice(3), 'base64');
  for (const part of signature.split(' ')) {
    const [version, value] = part.split(',', 2);
    if (version !== 'v1' || !value) continue;
    const given = Buffer.from(value, 'base64');
    if (given.length === expected.length && timingSafeEqual(given, expected)) return { ok: true };
  }
  return { ok: false, reason: 'signature does not match' };
}

/** A static token header compared in constant time (both sides hashed to one length first). */
export function verifyToken(secret: string, given: string | undefined): VerifyResult {
  if (!given) return { ok: false, reason: 'token header missing' };
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(secret).digest();
  return timingSafeEqual(a, b) ? { ok: true } : { ok: false, reason: 'token does not match' };
}
