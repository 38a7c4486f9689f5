import { SetMetadata, applyDecorators, createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { ApiForbiddenResponse, ApiSecurity, ApiUnauthorizedResponse } from '@nestjs/swagger';
import type { Principal } from './principal.js';

export const PUBLIC_KEY = 'platform:public';
export const SCOPES_KEY = 'platform:scopes';

/** The route needs no credentials (health, docs, public forms). */
export const Public = () => SetMetadata(PUBLIC_KEY, true);

/**
 * The route needs a caller holding every scope listed; with no scope listed, any authenticated
 * caller. One decorator states the rule and documents it in OpenAPI.
 */
export const RequireScopes = (...scopes: string[]) =>
  applyDecorators(
    SetMetadata(SCOPES_KEY, scopes),
    ApiSecurity('api_key', scopes),
    ApiSecurity('bearer', scopes),
    ApiUnauthorizedResponse({ description: 'Missing or invalid authentication credentials' }),
    ApiForbiddenResponse({ description: scopes.length ? `Requires scopes: ${scopes.join(', ')}` : 'Not permitted' }),
  );

export interface AuthenticatedRequest {
  principal?: Principal;
}

/** The authenticated caller; only on routes guarded by RequireScopes. */
export const CurrentPrincipal = createParamDecorator((_: unknown, ctx: ExecutionContext): Principal => {
  const request = ctx.switchToHttp().getRequest<AuthenticatedRequest>();
  if (!request.principal) throw new Error('CurrentPrincipal used on a route without authentication');
  return request.principal;
});
