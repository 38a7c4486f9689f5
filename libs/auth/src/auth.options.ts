export const AUTH_OPTIONS = Symbol('AUTH_OPTIONS');

export interface JwtSettings {
  jwksUrl?: string;
  issuer?: string;
  audience?: string;
  clockToleranceSeconds?: number;
}

export interface AuthOptions {
  jwt: JwtSettings;
  /** How long a key verification is reused before asking the account service again. */
  keyCacheTtlMs: number;
  /** Bearer token for system routes (initial tenant creation); unset disables that path. */
  adminToken?: string;
  usageFlushIntervalMs: number;
  usageMaxBatch: number;
}

export const DEFAULT_AUTH_OPTIONS: AuthOptions = {
  jwt: {},
  keyCacheTtlMs: 5000,
  usageFlushIntervalMs: 1000,
  usageMaxBatch: 500,
};
