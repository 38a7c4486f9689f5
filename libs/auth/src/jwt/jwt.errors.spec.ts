import { describe, expect, it } from '@jest/globals';
import { JWT_VERIFICATION_REASONS, JwtVerificationError } from './jwt.errors.js';

describe('JwtVerificationError', () => {
  it('is an Error carrying a reason code and a message', () => {
    const error = new JwtVerificationError('expired', 'Token has expired');
    expect(error).toBeInstanceOf(Error);
    expect(error).toBeInstanceOf(JwtVerificationError);
    expect(error.name).toBe('JwtVerificationError');
    expect(error.reason).toBe('expired');
    expect(error.message).toBe('Token has expired');
    expect(error.stack).toContain('JwtVerificationError');
  });

  it('keeps a cause when given one', () => {
    const cause = new Error('fetch failed');
    expect(new JwtVerificationError('no_keys', 'JWKS unavailable', { cause }).cause).toBe(cause);
    expect(new JwtVerificationError('malformed', 'x').cause).toBeUndefined();
  });

  it('lists each reason once', () => {
    expect([...JWT_VERIFICATION_REASONS].sort()).toEqual(
      [
        'bad_algorithm',
        'bad_audience',
        'bad_claims',
        'bad_issuer',
        'bad_signature',
        'expired',
        'malformed',
        'no_keys',
        'not_configured',
        'not_yet_valid',
      ].sort(),
    );
  });
});
