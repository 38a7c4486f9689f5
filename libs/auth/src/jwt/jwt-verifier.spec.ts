import { describe, expect, it } from '@jest/globals';
import { DEFAULT_JWT_ALGORITHMS, JwtVerifier, MAX_CLOCK_TOLERANCE_SECONDS, MAX_TOKEN_LENGTH } from './jwt-verifier.js';
import { JwtVerificationError, type JwtVerificationReason } from './jwt.errors.js';

// Never contacted: every case here is refused before any key is fetched.
const JWKS_URL = 'http://127.0.0.1:9/jwks.json';

async function reasonOf(promise: Promise<unknown>): Promise<JwtVerificationReason> {
  const error = await promise.then(
    () => {
      throw new Error('expected the token to be refused');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(JwtVerificationError);
  return (error as JwtVerificationError).reason;
}

describe('JwtVerifier options', () => {
  it('is not configured without a JWKS URL or an issuer', () => {
    expect(new JwtVerifier().isConfigured()).toBe(false);
    expect(new JwtVerifier({ audience: 'api' }).isConfigured()).toBe(false);
    // Settings from an env file arrive as empty strings.
    expect(new JwtVerifier({ jwksUrl: '', issuer: '', audience: '' }).isConfigured()).toBe(false);
  });

  it('is configured with a JWKS URL or an issuer', () => {
    expect(new JwtVerifier({ jwksUrl: JWKS_URL }).isConfigured()).toBe(true);
    expect(new JwtVerifier({ issuer: 'https://idp.example.test' }).isConfigured()).toBe(true);
  });

  it('accepts a clock tolerance from 0 to 120 seconds', () => {
    expect(() => new JwtVerifier({ jwksUrl: JWKS_URL, clockToleranceSeconds: 0 })).not.toThrow();
    expect(() => new JwtVerifier({ jwksUrl: JWKS_URL, clockToleranceSeconds: MAX_CLOCK_TOLERANCE_SECONDS })).not.toThrow();
    expect(MAX_CLOCK_TOLERANCE_SECONDS).toBe(120);
  });

  it.each([121, 3600, -1, Number.NaN, Number.POSITIVE_INFINITY])('refuses a clock tolerance of %p seconds', (seconds) => {
    expect(() => new JwtVerifier({ jwksUrl: JWKS_URL, clockToleranceSeconds: seconds })).toThrow(/clockToleranceSeconds must be between 0 and 120/);
  });

  it('defaults to asymmetric algorithms only', () => {
    expect(DEFAULT_JWT_ALGORITHMS).toEqual(['RS256', 'RS384', 'RS512', 'PS256', 'ES256', 'ES384', 'EdDSA']);
    expect(DEFAULT_JWT_ALGORITHMS.some((alg) => alg === 'none' || alg.startsWith('HS'))).toBe(false);
  });

  it.each([{ algorithms: ['none'] }, { algorithms: ['HS256'] }, { algorithms: ['RS256', 'HS512'] }, { algorithms: ['rs256'] }, { algorithms: [] }])(
    'refuses algorithms $algorithms',
    ({ algorithms }: { algorithms: string[] }) => {
      expect(() => new JwtVerifier({ jwksUrl: JWKS_URL, algorithms })).toThrow(/algorithms/);
    },
  );

  it('accepts a narrower list of asymmetric algorithms', () => {
    expect(() => new JwtVerifier({ jwksUrl: JWKS_URL, algorithms: ['ES256'] })).not.toThrow();
  });

  it.each(['not a url', 'ftp://idp.example.test/jwks.json', '/jwks.json'])('refuses jwksUrl %p', (jwksUrl) => {
    expect(() => new JwtVerifier({ jwksUrl })).toThrow(/jwksUrl must be an absolute http\(s\) URL/);
  });

  it('refuses an issuer it cannot run discovery on, unless a JWKS URL is given', () => {
    expect(() => new JwtVerifier({ issuer: 'urn:example:idp' })).toThrow(/issuer must be an absolute http\(s\) URL/);
    expect(() => new JwtVerifier({ issuer: 'urn:example:idp', jwksUrl: JWKS_URL })).not.toThrow();
  });

  it.each([0, -5, 1.5, Number.NaN])('refuses fetchTimeoutMs %p', (fetchTimeoutMs) => {
    expect(() => new JwtVerifier({ jwksUrl: JWKS_URL, fetchTimeoutMs })).toThrow(/fetchTimeoutMs/);
  });

  it('refuses an empty audience list', () => {
    expect(() => new JwtVerifier({ jwksUrl: JWKS_URL, audience: [] })).toThrow(/audience/);
    expect(() => new JwtVerifier({ jwksUrl: JWKS_URL, audience: ['api', ''] })).toThrow(/audience/);
  });
});

describe('JwtVerifier.verify without keys', () => {
  it('refuses every token when not configured', async () => {
    await expect(reasonOf(new JwtVerifier().verify('a.b.c'))).resolves.toBe('not_configured');
  });

  it('refuses a token over 8 KiB before parsing it', async () => {
    const token = `${'a'.repeat(MAX_TOKEN_LENGTH)}.b.c`;
    const error = await new JwtVerifier({ jwksUrl: JWKS_URL }).verify(token).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JwtVerificationError);
    expect((error as JwtVerificationError).reason).toBe('malformed');
    expect((error as JwtVerificationError).message).not.toContain('aaaa');
  });

  it.each(['', 'garbage', 'a.b', 'a.b.c.d', '!!!.???.***'])('refuses %p as malformed', async (token) => {
    await expect(reasonOf(new JwtVerifier({ jwksUrl: JWKS_URL }).verify(token))).resolves.toBe('malformed');
  });
});
