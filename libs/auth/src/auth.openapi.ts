import { applyDecorators } from '@nestjs/common';
import { ApiExtension, ApiHeader, ApiResponse, ApiSecurity } from '@nestjs/swagger';
import { AUTH_MESSAGES } from './auth.errors.js';

/**
 * How the auth decorators document a route in OpenAPI. The security schemes are declared once
 * here (the document builder of @platform/service adds them to every description) and each
 * decorator applies them, so a route's guard and its documentation cannot disagree.
 */
export const SECURITY_SCHEMES = {
  api_key: {
    type: 'apiKey',
    in: 'header',
    name: 'X-API-Key',
    description: 'An API key: `sv_live_…` (production data plane) or `sv_test_…` (sandbox). A tenant key may narrow itself to one customer with `X-Scope-Key`.',
  },
  api_key_bearer: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'sv_live_… / sv_test_… API key',
    description: 'The same API key sent as `Authorization: Bearer sv_…`.',
  },
  jwt: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description:
      "A user's JWT from the identity provider. On tenant routes send `X-SELECTED-TENANT` (required, one of the token's `authorized_tenants`) and optionally `X-SELECTED-ENV` (default: the tenant's production environment).",
  },
  admin_token: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'PLATFORM_ADMIN_TOKEN',
    description: 'The platform admin token (`PLATFORM_ADMIN_TOKEN`): initial tenant creation only.',
  },
} as const;

export type SecuritySchemeName = keyof typeof SECURITY_SCHEMES;

/** Marks how a route authenticates; the document builder turns it into `security` and strips it. */
export const AUTH_EXTENSION = 'x-platform-auth';
/** The scopes a tenant route requires, kept in the description for clients and tools. */
export const SCOPES_EXTENSION = 'x-required-scopes';

export type AuthKind = 'public' | 'tenant' | 'system';

/** Callers a system route takes: the platform admin token, a user's JWT without a tenant, or both. */
export type SystemCaller = 'admin' | 'user';

/** Descriptions of the auth failures; the document builder adds the error schema and examples. */
export const AUTH_RESPONSES = {
  tenantRequired: `With a JWT: ${AUTH_MESSAGES.tenantRequired}`,
  unauthorized: `${AUTH_MESSAGES.unauthorized}: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT`,
  forbidden: 'The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call',
  rateLimited: 'Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again',
  authUnavailable: 'Credentials cannot be checked right now (the account service or the identity provider is unreachable)',
} as const;

const TENANT_HEADERS = [
  ApiHeader({
    name: 'X-SELECTED-TENANT',
    required: false,
    description: "With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key.",
    schema: { type: 'string', format: 'uuid', example: '0194f1c2-0000-7000-8000-00000000000a' },
  }),
  ApiHeader({
    name: 'X-SELECTED-ENV',
    required: false,
    description: "With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key.",
    schema: { type: 'string', format: 'uuid', example: '0194f1c2-0000-7000-8000-000000000001' },
  }),
  ApiHeader({
    name: 'X-Scope-Key',
    required: false,
    description: "A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer.",
    schema: { type: 'string', format: 'uuid', example: '0194f1c2-0000-7000-8000-0000000000c1' },
  }),
];

/** Tenant routes: every credential kind, the tenant headers, and the failures authentication can give. */
export function documentTenantRoute(scopes: readonly string[]): MethodDecorator & ClassDecorator {
  const forbidden = scopes.length ? `${AUTH_RESPONSES.forbidden}. Requires ${scopes.map((s) => `\`${s}\``).join(', ')}` : AUTH_RESPONSES.forbidden;
  return applyDecorators(
    ApiExtension(AUTH_EXTENSION, 'tenant'),
    ApiExtension(SCOPES_EXTENSION, [...scopes]),
    ApiSecurity('api_key'),
    ApiSecurity('api_key_bearer'),
    ApiSecurity('jwt'),
    ...TENANT_HEADERS,
    ApiResponse({ status: 400, description: AUTH_RESPONSES.tenantRequired }),
    ApiResponse({ status: 401, description: AUTH_RESPONSES.unauthorized }),
    ApiResponse({ status: 403, description: forbidden }),
    ApiResponse({ status: 429, description: AUTH_RESPONSES.rateLimited }),
    ApiResponse({ status: 503, description: AUTH_RESPONSES.authUnavailable }),
  );
}

/** System routes: no tenant context; the admin token and/or a user's JWT sent without X-SELECTED-TENANT. */
export function documentSystemRoute(callers: readonly SystemCaller[]): MethodDecorator & ClassDecorator {
  const schemes = callers.map((c) => (c === 'admin' ? ApiSecurity('admin_token') : ApiSecurity('jwt')));
  const who = callers.map((c) => (c === 'admin' ? 'the platform admin token' : "a user's JWT (without X-SELECTED-TENANT)")).join(' or ');
  return applyDecorators(
    ApiExtension(AUTH_EXTENSION, 'system'),
    ...schemes,
    ApiResponse({ status: 401, description: `${AUTH_MESSAGES.unauthorized}: this route takes ${who}` }),
    ApiResponse({ status: 403, description: `The credential is valid but not one this route takes (${who})` }),
    ApiResponse({ status: 429, description: AUTH_RESPONSES.rateLimited }),
    ApiResponse({ status: 503, description: AUTH_RESPONSES.authUnavailable }),
  );
}

/** Public routes: `security: []` in the description. */
export function documentPublicRoute(): MethodDecorator & ClassDecorator {
  return ApiExtension(AUTH_EXTENSION, 'public');
}
