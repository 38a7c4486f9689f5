import { SetMetadata, applyDecorators, createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { ApiSecurity, ApiUnauthorizedResponse } from '@nestjs/swagger';

/** A caller of a system route: authenticated, with no tenant context (spec 5.4). */
export interface SystemPrincipal {
  kind: 'admin' | 'user';
  subject: string;
  email: string | null;
}

export const SYSTEM_KEY = 'platform:system';

/** Authenticated without a tenant: the platform admin token, or a user's JWT without X-SELECTED-TENANT. */
export const SystemRoute = () =>
  applyDecorators(SetMetadata(SYSTEM_KEY, true), ApiSecurity('bearer'), ApiUnauthorizedResponse({ description: 'Missing or invalid authentication credentials' }));

export interface SystemAuthenticatedRequest {
  systemPrincipal?: SystemPrincipal;
}

export const CurrentSystemPrincipal = createParamDecorator((_: unknown, ctx: ExecutionContext): SystemPrincipal => {
  const request = ctx.switchToHttp().getRequest<SystemAuthenticatedRequest>();
  if (!request.systemPrincipal) throw new Error('CurrentSystemPrincipal used on a route without @SystemRoute()');
  return request.systemPrincipal;
});
