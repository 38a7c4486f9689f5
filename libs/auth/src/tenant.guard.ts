import { Injectable, Logger, Optional, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { ServerResponse } from 'node:http';
import { PUBLIC_KEY, SCOPES_KEY, type AuthenticatedRequest } from './auth.decorators.js';
import { Authenticator, type CredentialsRequest } from './authenticator.js';
import { forbidden } from './auth.errors.js';
import { hasScopes, type Principal } from './principal.js';
import { SYSTEM_KEY, type SystemAuthenticatedRequest } from './system-principal.js';
import { UsageRecorder } from './usage/usage.recorder.js';

type GuardedRequest = CredentialsRequest &
  AuthenticatedRequest &
  SystemAuthenticatedRequest & { id?: string; originalUrl?: string; socket?: { remoteAddress?: string } };

/**
 * Global guard: every HTTP route is authenticated unless marked @Public(). System routes take a
 * credential without tenant context. A route that declares neither @Public(), @SystemRoute() nor
 * @RequireScopes() is refused after authentication (fail closed), and findUndecidedRoutes (tested
 * over every app module in libs/testing/src/route-access.spec.ts) finds it before it ships.
 */
@Injectable()
export class TenantGuard implements CanActivate {
  private readonly logger = new Logger(TenantGuard.name);

  constructor(
    private readonly reflector: Reflector,
    private readonly authenticator: Authenticator,
    @Optional() private readonly usage?: UsageRecorder,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    // Message handlers are internal; their callers authenticated at the edge and pass context.
    if (context.getType() !== 'http') return true;
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_KEY, targets)) return true;
    const request = context.switchToHttp().getRequest<GuardedRequest>();
    if (this.reflector.getAllAndOverride<boolean>(SYSTEM_KEY, targets)) {
      request.systemPrincipal = await this.authenticator.authenticateSystem(request);
      return true;
    }
    const principal = await this.authenticator.authenticate(request);
    request.principal = principal;
    const response = context.switchToHttp().getResponse<ServerResponse>();
    // The gateway learns which tenant a credential belongs to from this (and strips it): its plan's limits then apply.
    response.setHeader('x-platform-tenant', principal.tenantId);
    this.track(principal, request, response);
    const scopes = this.reflector.getAllAndOverride<string[] | undefined>(SCOPES_KEY, targets);
    if (scopes === undefined) {
      this.logger.error(`Route ${request.method} ${request.path} declares neither @Public() nor @RequireScopes()`);
      throw forbidden();
    }
    if (!hasScopes(principal, scopes)) throw forbidden();
    return true;
  }

  /** Every authenticated key use, including the ones refused for scope, goes to usage and audit. */
  private track(principal: Principal, request: GuardedRequest, response: ServerResponse): void {
    if (!this.usage || principal.kind === 'user') return;
    const usage = this.usage;
    response.once('finish', () => {
      usage.record({
        keyId: principal.subject,
        keyName: principal.keyName ?? '',
        tenantId: principal.tenantId,
        environmentId: principal.environmentId,
        customerId: principal.kind === 'customer_key' ? principal.scopeId : null,
        method: request.method,
        endpoint: (request.originalUrl ?? request.path).split('?')[0],
        httpStatus: response.statusCode,
        requestId: request.id ?? '',
        ip: request.ip ?? request.socket?.remoteAddress ?? null,
        at: new Date().toISOString(),
      });
    });
  }
}
