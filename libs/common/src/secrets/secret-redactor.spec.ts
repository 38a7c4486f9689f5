import { describe, expect, it } from '@jest/globals';
import { AppError } from '../errors/app.errors.js';
import { REDACTED, SecretRedactor } from './secret-redactor.js';

describe('SecretRedactor', () => {
  const key = 'sk-live-4f9a8b7c6d5e';

  it('replaces a secret in every form it travels in', () => {
    const r = new SecretRedactor([key, 'p@ss word/+&=', 'alice:p@ss word/+&=']);
    expect(r.text(`Incorrect API key provided: ${key}.`)).toBe(`Incorrect API key provided: ${REDACTED}.`);
    expect(r.text(`?token=${encodeURIComponent('p@ss word/+&=')}`)).toBe(`?token=${REDACTED}`);
    expect(r.text(`pw=${new URLSearchParams({ a: 'p@ss word/+&=' }).toString().slice(2)}`)).toBe(`pw=${REDACTED}`);
    expect(r.text(`Basic ${Buffer.from('alice:p@ss word/+&=').toString('base64')}`)).toBe(`Basic ${REDACTED}`);
    expect(r.text(JSON.stringify({ echoed: 'say "x\\y" p@ss word/+&=' }))).not.toContain('p@ss word');
    const quoted = new SecretRedactor(['a"b\\c-secret']);
    expect(quoted.text(JSON.stringify({ body: 'a"b\\c-secret' }))).toBe(`{"body":"${REDACTED}"}`);
  });

  it('treats the path and query of a secret URL as secret, not its host', () => {
    const hook = 'https://hooks.example.com/services/T000/B000/XXXXSECRET?sig=abcdef123456';
    const r = new SecretRedactor([hook]);
    expect(r.text(`404 no route for POST /services/T000/B000/XXXXSECRET?sig=abcdef123456`)).toBe(`404 no route for POST ${REDACTED}`);
    expect(r.text('bad signature abcdef123456')).toBe(`bad signature ${REDACTED}`);
    expect(r.text('could not reach hooks.example.com')).toBe('could not reach hooks.example.com');
  });

  it('replaces the longest first and cuts off a secret whose echo was truncated', () => {
    const r = new SecretRedactor(['abcd', 'abcdefgh-long']);
    expect(r.text('x abcdefgh-long y abcd')).toBe(`x ${REDACTED} y ${REDACTED}`);
    expect(new SecretRedactor([key]).text(`key: ${key.slice(0, 12)}`)).toBe(`key: ${REDACTED}`);
    // A short common end is not taken for a secret.
    expect(new SecretRedactor([key]).text('a task')).toBe('a task');
  });

  it('ignores values too short to be secrets, and redacts nothing when it has none', () => {
    const r = new SecretRedactor(['abc', '', null, undefined]);
    expect(r.empty).toBe(true);
    expect(r.text('abc')).toBe('abc');
  });

  it('redacts data deeply (keys too) and leaves other values alone', () => {
    const r = SecretRedactor.of({ token: key, n: 3 });
    const at = new Date(0);
    expect(r.redact({ a: [key, { [key]: 1, n: 2, at }], ok: true })).toEqual({ a: [REDACTED, { [REDACTED]: 1, n: 2, at }], ok: true });
  });

  it('redacts errors in place, keeping their class and status', async () => {
    const r = new SecretRedactor([key]);
    const error = await r
      .guard(() => Promise.reject(new AppError('provider_failed', 502, `answered 401: bad key ${key}`, [{ field: key, message: key }])))
      .then(
        () => undefined,
        (e: unknown) => e as AppError,
      );
    expect(error).toBeInstanceOf(AppError);
    expect(error?.status).toBe(502);
    expect(error?.message).toBe(`answered 401: bad key ${REDACTED}`);
    expect(error?.stack).not.toContain(key);
    expect(JSON.stringify(error?.details)).not.toContain(key);
    await expect(r.guard(() => Promise.resolve({ echo: key }))).resolves.toEqual({ echo: REDACTED });
  });

  it('redacts a streamed text whose secret is split across pieces, holding back only a possible start', () => {
    const stream = new SecretRedactor([key]).stream();
    const pieces = ['the key is sk-li', 've-4f9a', '8b7c6d5e, done', ' and ', 'sk'];
    const out = pieces.map((p) => stream.push(p));
    expect(out[0]).toBe('the key is ');
    expect(out[1]).toBe('');
    expect(out[3]).toBe(' and ');
    expect(out.join('') + stream.flush()).toBe(`the key is ${REDACTED}, done and sk`);
  });
});
