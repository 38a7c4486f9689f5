import { SetMetadata, applyDecorators, createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { documentSystemRoute, type SystemCaller } from './auth.openapi.js';

/** A caller of a system route: authenticated, with no tenant context (spec 5.4). */
export interface SystemPrincipal {
  kind: 'admin' | 'user';
  subject: string;
  email: string | null;
}

export const SYSTEM_KEY = 'platform:system';

/**
 * Authenticated without a tenant: the platform admin token, or a user's JWT without
 * X-SELECTED-TENANT. `callers` says which of the two the route takes (both by default), for its
 * OpenAPI security; the handler checks `CurrentSystemPrincipal().kind` itself.
 */
export const SystemRoute = (...callers: SystemCaller[]) =>
  applyDecorators(SetMetadata(SYSTEM_KEY, true), documentSystemRoute(callers.length ? callers : ['admin', 'user']));

export interface SystemAuthenticatedRequest {
  systemPrincipal?: SystemPrincipal;
}

export const CurrentSystemPrincipal = createParamDecorator((_: unknown, ctx: ExecutionContext): SystemPrincipal => {
  const request = ctx.switchToHttp().getRequest<SystemAuthenticatedRequest>();
  if (!request.systemPrincipal) throw new Error('CurrentSystemPrincipal used on a route without @SystemRoute()');
  return request.systemPrincipal;
});
