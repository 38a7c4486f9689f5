import type { Principal } from './principal.js';
import type { SystemPrincipal } from './system-principal.js';
import { unauthorized } from './auth.errors.js';

/** The parts of an HTTP request authentication reads. */
export interface CredentialsRequest {
  headers: Record<string, string | string[] | undefined>;
  method: string;
  path: string;
  ip?: string;
}

/**
 * Turns a request's credentials into a Principal, or throws the spec's 401/403/400.
 * The guard depends on this token so the authentication strategy can change without
 * touching any route.
 */
export abstract class Authenticator {
  /** Tenant routes (the default class). */
  abstract authenticate(request: CredentialsRequest): Promise<Principal>;

  /** System routes: authenticated, no tenant context. */
  authenticateSystem(_request: CredentialsRequest): Promise<SystemPrincipal> {
    return Promise.reject(unauthorized());
  }
}
