import { SetMetadata, applyDecorators, createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { documentPublicRoute, documentTenantRoute } from './auth.openapi.js';
import type { Principal } from './principal.js';

export const PUBLIC_KEY = 'platform:public';
export const SCOPES_KEY = 'platform:scopes';

/** The route needs no credentials (health, docs, public forms); documented with `security: []`. */
export const Public = () => applyDecorators(SetMetadata(PUBLIC_KEY, true), documentPublicRoute());

/**
 * The route needs a caller holding every scope listed; with no scope listed, any authenticated
 * caller. One decorator states the rule and documents it in OpenAPI: the security schemes, the
 * tenant headers, the scopes and the 400/401/403/429/503 that authentication can answer.
 */
export const RequireScopes = (...scopes: string[]) => applyDecorators(SetMetadata(SCOPES_KEY, scopes), documentTenantRoute(scopes));

export interface AuthenticatedRequest {
  principal?: Principal;
}

/** The authenticated caller; only on routes guarded by RequireScopes. */
export const CurrentPrincipal = createParamDecorator((_: unknown, ctx: ExecutionContext): Principal => {
  const request = ctx.switchToHttp().getRequest<AuthenticatedRequest>();
  if (!request.principal) throw new Error('CurrentPrincipal used on a route without authentication');
  return request.principal;
});
