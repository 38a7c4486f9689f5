import { randomBytes } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { SecretBox } from './secret-box.js';
import { newSecret, sign, verifyStandardWebhook, verifyToken } from './signature.js';

describe('Standard Webhooks verification', () => {
  const secret = newSecret();
  const body = Buffer.from('{"a":1}');
  const now = 1_700_000_000;
  const headers = (overrides: Partial<Record<'id' | 'timestamp' | 'signature', string>> = {}) => ({
    id: 'msg_1',
    timestamp: String(now),
    signature: sign(secret, 'msg_1', now, body),
    ...overrides,
  });

  it('accepts a valid signature, also among several', () => {
    expect(verifyStandardWebhook(secret, headers(), body, now)).toEqual({ ok: true });
    expect(verifyStandardWebhook(secret, headers({ signature: `v1,AAAA ${sign(secret, 'msg_1', now, body)}` }), body, now)).toEqual({ ok: true });
  });

  it('refuses a tampered body, another id, a wrong secret, a stale or future timestamp and missing headers', () => {
    expect(verifyStandardWebhook(secret, headers(), Buffer.from('{"a":2}'), now).ok).toBe(false);
    expect(verifyStandardWebhook(secret, headers({ id: 'msg_2' }), body, now).ok).toBe(false);
    expect(verifyStandardWebhook(newSecret(), headers(), body, now).ok).toBe(false);
    expect(verifyStandardWebhook(secret, headers(), body, now + 301)).toEqual({ ok: false, reason: 'webhook-timestamp is outside the 5-minute tolerance' });
    expect(verifyStandardWebhook(secret, headers(), body, now - 301).ok).toBe(false);
    expect(verifyStandardWebhook(secret, { id: 'msg_1' }, body, now).ok).toBe(false);
    expect(verifyStandardWebhook(secret, headers({ signature: 'v2,abc' }), body, now).ok).toBe(false);
  });

  it('compares tokens exactly', () => {
    expect(verifyToken('whsec_x', 'whsec_x').ok).toBe(true);
    expect(verifyToken('whsec_x', 'whsec_y').ok).toBe(false);
    expect(verifyToken('whsec_x', undefined).ok).toBe(false);
  });
});

describe('SecretBox', () => {
  it('opens what it sealed only for the same tenant, environment and webhook', () => {
    const box = new SecretBox(randomBytes(32));
    const sealed = box.seal('t1', 'e1', 'w1', 'whsec_abc');
    expect(box.open('t1', 'e1', 'w1', sealed)).toBe('whsec_abc');
    expect(() => box.open('t2', 'e1', 'w1', sealed)).toThrow();
    expect(() => box.open('t1', 'e1', 'w2', sealed)).toThrow();
  });
});
