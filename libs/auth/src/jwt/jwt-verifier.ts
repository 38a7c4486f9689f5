import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import { JwtVerificationError } from './jwt.errors.js';

export interface JwtVerifierOptions {
  /** Where the identity provider publishes its public keys. Takes precedence over discovery. */
  jwksUrl?: string;
  /** Expected `iss`; without `jwksUrl`, also where OIDC discovery finds the JWKS. */
  issuer?: string;
  /** Expected `aud` (any one of them); not checked when unset. */
  audience?: string | string[];
  /** Allowed clock skew for `exp`, `nbf` and `iat`; default 30, at most 120. */
  clockToleranceSeconds?: number;
  /** Accepted `alg` values; default DEFAULT_JWT_ALGORITHMS. Asymmetric algorithms only. */
  algorithms?: string[];
  /** Bound on fetching the keys (discovery and JWKS together) in one verification; default 3000. */
  fetchTimeoutMs?: number;
}

/** The bearer token claims of the spec (section 2.3), in camelCase. */
export interface JwtClaims {
  sub: string;
  email: string | null;
  tenants: string[];
  authorizedTenants: string[];
  iat: number;
  exp: number;
}

export const DEFAULT_JWT_ALGORITHMS: readonly string[] = Object.freeze(['RS256', 'RS384', 'RS512', 'PS256', 'ES256', 'ES384', 'EdDSA']);

/**
 * Only public-key algorithms: the keys come from a public JWKS, so accepting HS* would let anyone
 * holding the public key forge tokens (key confusion), and `none` needs no key at all.
 */
const ASYMMETRIC_ALGORITHMS = new Set(['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519']);

export const MAX_CLOCK_TOLERANCE_SECONDS = 120;
const DEFAULT_CLOCK_TOLERANCE_SECONDS = 30;
const DEFAULT_FETCH_TIMEOUT_MS = 3000;
/** Real access tokens are 1–2 KiB; anything far larger is refused before it is parsed. */
export const MAX_TOKEN_LENGTH = 8 * 1024;

/** A failure to obtain keys (discovery or JWKS), as opposed to a problem with the token. */
class KeySourceError extends Error {}

/**
 * Verifies bearer tokens against the identity provider's JWKS (`jwksUrl`, or found by OIDC
 * discovery from `issuer`). All cryptography and JWT parsing is jose's; this class chooses the
 * policy (algorithms, claims, clock tolerance, time bounds) and turns every failure into a
 * JwtVerificationError with a reason.
 */
export class JwtVerifier {
  private readonly issuer: string | undefined;
  private readonly audience: string | string[] | undefined;
  private readonly jwksUrl: URL | undefined;
  private readonly clockTolerance: number;
  private readonly algorithms: string[];
  private readonly fetchTimeoutMs: number;
  /** The JWKS once known: at once from `jwksUrl`, else after discovery succeeds. */
  private keys: JWTVerifyGetKey | undefined;
  /** Where `keys` come from, for log messages. */
  private keysUrl: string | undefined;
  /** Discovery in flight; cleared when it fails so the next verification tries again. */
  private discovery: Promise<JWTVerifyGetKey> | undefined;

  constructor(options: JwtVerifierOptions = {}) {
    // Empty strings count as unset: settings often arrive as `JWT_ISSUER=` in an env file.
    this.issuer = options.issuer || undefined;
    this.audience = normalizeAudience(options.audience);
    this.jwksUrl = options.jwksUrl ? parseHttpUrl(options.jwksUrl, 'jwksUrl') : undefined;
    if (this.issuer !== undefined && !this.jwksUrl) parseHttpUrl(this.issuer, 'issuer');
    this.clockTolerance = validateClockTolerance(options.clockToleranceSeconds);
    this.algorithms = validateAlgorithms(options.algorithms);
    this.fetchTimeoutMs = options.fetchTimeoutMs ?? DEFAULT_FETCH_TIMEOUT_MS;
    if (!Number.isInteger(this.fetchTimeoutMs) || this.fetchTimeoutMs <= 0) {
      throw new Error(`JwtVerifier: fetchTimeoutMs must be a positive integer (milliseconds), got ${String(options.fetchTimeoutMs)}`);
    }
    if (this.jwksUrl) {
      this.keys = createRemoteJWKSet(this.jwksUrl, { timeoutDuration: this.fetchTimeoutMs });
      this.keysUrl = this.jwksUrl.href;
    }
  }

  /** False when there is nowhere to get keys from: every token would be refused. */
  isConfigured(): boolean {
    return this.jwksUrl !== undefined || this.issuer !== undefined;
  }

  async verify(token: string): Promise<JwtClaims> {
    if (!this.isConfigured()) {
      throw new JwtVerificationError('not_configured', 'JWT verification is not configured (neither a JWKS URL nor an issuer is set)');
    }
    if (typeof token !== 'string' || token.length === 0) throw new JwtVerificationError('malformed', 'Token is empty');
    if (token.length > MAX_TOKEN_LENGTH) {
      throw new JwtVerificationError('malformed', `Token is longer than ${MAX_TOKEN_LENGTH} characters`);
    }
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, this.getKey, {
        algorithms: this.algorithms,
        issuer: this.issuer,
        audience: this.audience,
        clockTolerance: this.clockTolerance,
        requiredClaims: ['exp', 'iat', 'sub'],
      }));
    } catch (error) {
      throw toVerificationError(error);
    }
    return this.readClaims(payload);
  }

  /**
   * The key for a token's header. Once the JWKS is known jose bounds its fetches by the timeout;
   * before that, discovery and the first JWKS fetch share one deadline.
   */
  private readonly getKey: JWTVerifyGetKey = (header, token) =>
    this.keys
      ? this.keyFrom(this.keys, header, token)
      : withDeadline(this.fetchTimeoutMs, `discovering the signing keys of ${String(this.issuer)}`, async () =>
          this.keyFrom(await this.discover(), header, token),
        );

  private async keyFrom(keys: JWTVerifyGetKey, ...[header, token]: Parameters<JWTVerifyGetKey>) {
    try {
      return await keys(header, token);
    } catch (error) {
      // The set was fetched but holds no key for this token: the token's problem, not the source's.
      if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys) throw error;
      throw new KeySourceError(`JWKS ${this.keysUrl ?? '(unknown)'} unavailable: ${describeFailure(error)}`, { cause: error });
    }
  }

  private discover(): Promise<JWTVerifyGetKey> {
    this.discovery ??= this.fetchDiscovery().then(
      (keys) => (this.keys = keys),
      (error: unknown) => {
        this.discovery = undefined;
        throw error;
      },
    );
    return this.discovery;
  }

  private async fetchDiscovery(): Promise<JWTVerifyGetKey> {
    const issuer = this.issuer as string;
    const url = `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;
    const fail = (why: string, cause?: unknown): never => {
      throw new KeySourceError(`OIDC discovery at ${url} failed: ${why}`, { cause });
    };
    let document: unknown;
    try {
      const response = await fetch(url, {
        headers: { accept: 'application/json' },
        redirect: 'manual',
        signal: AbortSignal.timeout(this.fetchTimeoutMs),
      });
      if (response.status !== 200) fail(`HTTP ${response.status}`);
      document = await response.json();
    } catch (error) {
      if (error instanceof KeySourceError) throw error;
      fail(describeFailure(error), error);
    }
    if (typeof document !== 'object' || document === null) return fail('the document is not a JSON object');
    const { issuer: documentIssuer, jwks_uri: jwksUri } = document as Record<string, unknown>;
    // OIDC Discovery 1.0 §4.3: the document must name exactly the issuer it was fetched for.
    if (documentIssuer !== issuer) return fail(`the document's issuer does not equal the configured issuer ${issuer}`);
    if (typeof jwksUri !== 'string') return fail('the document has no jwks_uri');
    let jwksUrl: URL;
    try {
      jwksUrl = parseHttpUrl(jwksUri, 'jwks_uri');
    } catch {
      return fail('jwks_uri is not an http(s) URL');
    }
    this.keysUrl = jwksUrl.href;
    return createRemoteJWKSet(jwksUrl, { timeoutDuration: this.fetchTimeoutMs });
  }

  private readClaims(payload: JWTPayload): JwtClaims {
    const { sub, email, iat, exp } = payload;
    // jose checks exp/nbf, and iat only as a number; a token "issued" in the future is refused here.
    if (typeof iat !== 'number' || typeof exp !== 'number') throw badClaims('"iat" and "exp" must be numbers');
    if (iat > Date.now() / 1000 + this.clockTolerance) {
      throw new JwtVerificationError('not_yet_valid', '"iat" claim is in the future beyond the clock tolerance');
    }
    if (typeof sub !== 'string' || sub.length === 0) throw badClaims('"sub" claim must be a non-empty string');
    if (email !== undefined && email !== null && typeof email !== 'string') throw badClaims('"email" claim must be a string');
    return {
      sub,
      email: email ?? null,
      tenants: stringArrayClaim(payload, 'tenants'),
      authorizedTenants: stringArrayClaim(payload, 'authorized_tenants'),
      iat,
      exp,
    };
  }
}

function badClaims(message: string): JwtVerificationError {
  return new JwtVerificationError('bad_claims', message);
}

function stringArrayClaim(payload: JWTPayload, claim: string): string[] {
  const value = payload[claim];
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) {
    throw badClaims(`"${claim}" claim must be an array of strings`);
  }
  return [...value];
}

/**
 * Maps jose's errors to reasons. The messages are this file's own: nothing from the token (its
 * header values, claims or signature) is echoed, since the caller chooses all of it.
 */
function toVerificationError(error: unknown): JwtVerificationError {
  if (error instanceof JwtVerificationError) return error;
  if (error instanceof KeySourceError) return new JwtVerificationError('no_keys', error.message, { cause: error.cause });
  if (error instanceof errors.JWTExpired) return new JwtVerificationError('expired', 'Token has expired ("exp" is in the past beyond the clock tolerance)');
  if (error instanceof errors.JWTClaimValidationFailed) {
    // No `cause`: jose's error carries the whole claims set (e-mail included), which loggers would print.
    const problem = error.reason === 'missing' ? 'is missing' : error.reason === 'invalid' ? 'has the wrong type' : 'check failed';
    switch (error.claim) {
      case 'iss':
        return new JwtVerificationError('bad_issuer', `Token issuer ("iss") ${problem}: it must be the configured issuer`);
      case 'aud':
        return new JwtVerificationError('bad_audience', `Token audience ("aud") ${problem}: it must include the configured audience`);
      case 'nbf':
        if (error.reason === 'check_failed') {
          return new JwtVerificationError('not_yet_valid', 'Token is not valid yet ("nbf" is in the future beyond the clock tolerance)');
        }
        return badClaims(`"nbf" claim ${problem}`);
      default:
        // The claim names come from jose's own checks (exp, iat, sub, nbf, typ), never from the token.
        return badClaims(`"${error.claim}" claim ${problem}`);
    }
  }
  if (error instanceof errors.JOSEAlgNotAllowed) return new JwtVerificationError('bad_algorithm', 'Token "alg" is not an allowed algorithm');
  if (error instanceof errors.JWSSignatureVerificationFailed) return new JwtVerificationError('bad_signature', 'Token signature does not verify');
  if (error instanceof errors.JWKSNoMatchingKey) return new JwtVerificationError('bad_signature', 'No key in the JWKS matches the token ("kid"/"alg")');
  if (error instanceof errors.JWKSMultipleMatchingKeys) {
    return new JwtVerificationError('bad_signature', 'Several keys in the JWKS match the token and it names no "kid"');
  }
  if (error instanceof errors.JWSInvalid || error instanceof errors.JWTInvalid || error instanceof errors.JOSENotSupported) {
    return new JwtVerificationError('malformed', `Token is not a valid JWS/JWT (${error.code})`);
  }
  // Anything else is unexpected (e.g. a key jose refuses to use); refuse the token and keep the cause.
  return new JwtVerificationError('malformed', `Token could not be verified: ${describeFailure(error)}`, { cause: error });
}

/** A short description of a fetch or jose failure; Node's fetch hides the real reason in `cause`. */
function describeFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  if (error.name === 'TimeoutError' || error instanceof errors.JWKSTimeout) return 'timed out';
  const cause = error.cause;
  if (!(cause instanceof Error)) return error.message;
  const code = 'code' in cause && typeof cause.code === 'string' ? cause.code : undefined;
  return `${error.message} (${code ?? cause.message})`;
}

function withDeadline<T>(ms: number, what: string, work: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new KeySourceError(`${what} timed out after ${ms} ms`)), ms);
    timer.unref();
  });
  return Promise.race([work(), deadline]).finally(() => clearTimeout(timer));
}

function parseHttpUrl(value: string, name: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`JwtVerifier: ${name} must be an absolute http(s) URL, got "${value}"`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new Error(`JwtVerifier: ${name} must be an absolute http(s) URL, got "${value}"`);
  }
  return url;
}

function normalizeAudience(audience: string | string[] | undefined): string | string[] | undefined {
  if (audience === undefined || audience === '') return undefined;
  const list = Array.isArray(audience) ? audience : [audience];
  if (list.length === 0 || list.some((item) => typeof item !== 'string' || item.length === 0)) {
    throw new Error('JwtVerifier: audience must be a non-empty string or a non-empty array of non-empty strings');
  }
  return audience;
}

function validateClockTolerance(seconds: number | undefined): number {
  const value = seconds ?? DEFAULT_CLOCK_TOLERANCE_SECONDS;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > MAX_CLOCK_TOLERANCE_SECONDS) {
    throw new Error(`JwtVerifier: clockToleranceSeconds must be between 0 and ${MAX_CLOCK_TOLERANCE_SECONDS} seconds, got ${String(seconds)}`);
  }
  return value;
}

function validateAlgorithms(algorithms: string[] | undefined): string[] {
  const list = algorithms ?? [...DEFAULT_JWT_ALGORITHMS];
  if (list.length === 0) throw new Error('JwtVerifier: algorithms must not be empty');
  const refused = list.filter((alg) => !ASYMMETRIC_ALGORITHMS.has(alg));
  if (refused.length > 0) {
    throw new Error(
      `JwtVerifier: algorithms ${refused.join(', ')} not allowed; only asymmetric signature algorithms ` +
        `(${[...ASYMMETRIC_ALGORITHMS].join(', ')}) can be verified with a JWKS (never "none" or HS*)`,
    );
  }
  return [...list];
}
