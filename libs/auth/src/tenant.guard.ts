import { Injectable, Logger, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { PUBLIC_KEY, SCOPES_KEY, type AuthenticatedRequest } from './auth.decorators.js';
import { Authenticator, type CredentialsRequest } from './authenticator.js';
import { forbidden } from './auth.errors.js';
import { hasScopes } from './principal.js';

/**
 * Global guard: every HTTP route is authenticated unless marked @Public(). A route that declares
 * neither @Public() nor @RequireScopes() is refused after authentication (fail closed), and a
 * test lists such routes so they never ship.
 */
@Injectable()
export class TenantGuard implements CanActivate {
  private readonly logger = new Logger(TenantGuard.name);

  constructor(
    private readonly reflector: Reflector,
    private readonly authenticator: Authenticator,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    // Message handlers are internal; their callers authenticated at the edge and pass context.
    if (context.getType() !== 'http') return true;
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_KEY, targets)) return true;
    const request = context.switchToHttp().getRequest<CredentialsRequest & AuthenticatedRequest>();
    const principal = await this.authenticator.authenticate(request);
    request.principal = principal;
    const scopes = this.reflector.getAllAndOverride<string[] | undefined>(SCOPES_KEY, targets);
    if (scopes === undefined) {
      this.logger.error(`Route ${request.method} ${request.path} declares neither @Public() nor @RequireScopes()`);
      throw forbidden();
    }
    if (!hasScopes(principal, scopes)) throw forbidden();
    return true;
  }
}
