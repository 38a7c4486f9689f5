import type { Principal } from './principal.js';
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
  abstract authenticate(request: CredentialsRequest): Promise<Principal>;
}

/** Until credentials can be verified, every protected route answers 401. */
export class RejectAllAuthenticator extends Authenticator {
  authenticate(): Promise<Principal> {
    return Promise.reject(unauthorized());
  }
}
