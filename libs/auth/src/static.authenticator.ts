import { Injectable } from '@nestjs/common';
import { Authenticator } from './authenticator.js';
import type { Principal } from './principal.js';

/**
 * Benchmarks only (AUTH_MODE=bench-static, refused in production): every request is the same
 * tenant, so `npm run bench` can measure what real authentication costs against nothing.
 */
@Injectable()
export class StaticAuthenticator extends Authenticator {
  constructor(private readonly principal: Principal) {
    super();
  }

  authenticate(): Promise<Principal> {
    return Promise.resolve(this.principal);
  }
}
