import { createHash } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { identifyCaller, jwtSubject } from './caller.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const segment = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const jwt = (payload: object) => `${segment({ alg: 'RS256', typ: 'JWT' })}.${segment(payload)}.c2lnbmF0dXJl`;

describe('identifyCaller', () => {
  it.each([
    ['sv_live_abc123', 'live'],
    ['sv_test_abc123', 'test'],
  ] as const)('counts the API key %s per key, in class %s', (key, keyClass) => {
    const expected = { class: keyClass, id: `key:${sha256(key)}` };
    expect(identifyCaller({ 'x-api-key': key }, '10.0.0.1')).toEqual(expected);
    expect(identifyCaller({ authorization: `Bearer ${key}` }, '10.0.0.1')).toEqual(expected);
    expect(identifyCaller({ authorization: `bearer   ${key}` }, '10.0.0.2')).toEqual(expected);
  });

  it('never puts the raw key in the id', () => {
    const caller = identifyCaller({ 'x-api-key': 'sv_live_secret' }, undefined);
    expect(caller.id).not.toContain('secret');
    expect(caller.id).toMatch(/^key:[0-9a-f]{64}$/);
  });

  it('prefers X-API-Key over Authorization', () => {
    const caller = identifyCaller({ 'x-api-key': 'sv_test_one', authorization: 'Bearer sv_live_two' }, undefined);
    expect(caller).toEqual({ class: 'test', id: `key:${sha256('sv_test_one')}` });
  });

  it('counts a bearer JWT per subject and selected tenant, whatever the signature', () => {
    const token = jwt({ sub: 'user-1', exp: 1 });
    const caller = identifyCaller({ authorization: `Bearer ${token}`, 'x-selected-tenant': 'tenant-a' }, '10.0.0.1');
    expect(caller).toEqual({ class: 'user', id: `user:${sha256('user-1|tenant-a')}` });
    const resigned = `${token.slice(0, token.lastIndexOf('.'))}.b3RoZXI`;
    expect(identifyCaller({ authorization: `Bearer ${resigned}`, 'x-selected-tenant': 'tenant-a' }, '10.0.0.9')).toEqual(caller);
    expect(identifyCaller({ authorization: `Bearer ${token}`, 'x-selected-tenant': 'tenant-b' }, '10.0.0.1').id).not.toBe(caller.id);
    expect(identifyCaller({ authorization: `Bearer ${token}` }, '10.0.0.1')).toEqual({ class: 'user', id: `user:${sha256('user-1|')}` });
  });

  it.each(['opaque-token', 'a.b', 'x.!!!.y', `h.${segment({ sub: 42 })}.s`, `h.${segment({ email: 'a@b.c' })}.s`, `h.${segment(['sub'])}.s`])(
    'counts an undecodable bearer token %s by the whole token',
    (token) => {
      expect(identifyCaller({ authorization: `Bearer ${token}` }, '10.0.0.1')).toEqual({ class: 'user', id: `user:${sha256(token)}` });
    },
  );

  it('ignores an X-API-Key without a key prefix and falls back to the other headers', () => {
    expect(identifyCaller({ 'x-api-key': 'not-a-key' }, '10.0.0.1')).toEqual({ class: 'anonymous', id: 'ip:10.0.0.1' });
    expect(identifyCaller({ 'x-api-key': 'sv_live_' }, '10.0.0.1')).toEqual({ class: 'anonymous', id: 'ip:10.0.0.1' });
    expect(identifyCaller({ 'x-api-key': 'nope', authorization: 'Bearer sv_live_k' }, '10.0.0.1').class).toBe('live');
  });

  it('counts a request without credentials per client address', () => {
    expect(identifyCaller({}, '::ffff:192.0.2.7')).toEqual({ class: 'anonymous', id: 'ip:::ffff:192.0.2.7' });
    expect(identifyCaller({ authorization: 'Basic dXNlcjpwYXNz' }, '192.0.2.7')).toEqual({ class: 'anonymous', id: 'ip:192.0.2.7' });
    expect(identifyCaller({ authorization: 'Bearer ' }, '192.0.2.7')).toEqual({ class: 'anonymous', id: 'ip:192.0.2.7' });
    expect(identifyCaller({}, undefined)).toEqual({ class: 'anonymous', id: 'ip:unknown' });
  });

  it('counts a delivery to a public webhook address against the webhook, whoever sends it', () => {
    const id = '01A20705-FCFB-764E-9B07-6974EB4BDC59';
    expect(identifyCaller({}, '192.0.2.7', `/webhooks/in/${id}`)).toEqual({ class: 'webhook', id: `webhook:${id.toLowerCase()}` });
    expect(identifyCaller({}, '192.0.2.8', `/webhooks/in/${id}?x=1`)).toEqual({ class: 'webhook', id: `webhook:${id.toLowerCase()}` });
    expect(identifyCaller({}, '192.0.2.7', '/webhooks/in/not-an-id')).toEqual({ class: 'anonymous', id: 'ip:192.0.2.7' });
    expect(identifyCaller({}, '192.0.2.7', `/webhooks/${id}`)).toEqual({ class: 'anonymous', id: 'ip:192.0.2.7' });
  });
});

describe('jwtSubject', () => {
  it('reads sub from the payload without verifying', () => {
    expect(jwtSubject(jwt({ sub: '0190a0b2-0000-7000-8000-000000000001' }))).toBe('0190a0b2-0000-7000-8000-000000000001');
  });

  it.each(['', 'nodots', 'one.dot', `h.${segment({ sub: '' })}.s`, 'h.bm90IGpzb24.s', `h.${segment({ sub: null })}.s`])('is undefined for %j', (token) => {
    expect(jwtSubject(token)).toBeUndefined();
  });
});
