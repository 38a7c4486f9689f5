/**
 * Why a bearer token was refused. The guard answers 401 for every one of them (the spec has one
 * text for all); the reason is for logs and metrics, so an operator can tell an expired token
 * from an identity provider that cannot be reached.
 */
export const JWT_VERIFICATION_REASONS = [
  'malformed',
  'expired',
  'not_yet_valid',
  'bad_signature',
  'bad_algorithm',
  'bad_issuer',
  'bad_audience',
  'bad_claims',
  'no_keys',
  'not_configured',
] as const;

export type JwtVerificationReason = (typeof JWT_VERIFICATION_REASONS)[number];

/**
 * A token failed verification. The message is safe to log: it never contains the token, its
 * claims, or header values chosen by the caller.
 */
export class JwtVerificationError extends Error {
  override readonly name = 'JwtVerificationError';

  constructor(
    readonly reason: JwtVerificationReason,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
