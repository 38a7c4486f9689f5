import type { GatewayConfig } from '../config/gateway.config.js';
import type { ConsoleSettings } from './console.routes.js';

/** The console's sign-in settings from the gateway's: only what a browser may see (no secret exists: PKCE, public client). */
export function consoleSettings(
  config: Pick<GatewayConfig, 'CONSOLE_OIDC_ISSUER' | 'CONSOLE_OIDC_CLIENT_ID' | 'CONSOLE_OIDC_SCOPE' | 'CONSOLE_OIDC_AUDIENCE'>,
): ConsoleSettings {
  if (!config.CONSOLE_OIDC_ISSUER) return { oidc: null };
  return {
    oidc: {
      issuer: config.CONSOLE_OIDC_ISSUER,
      client_id: config.CONSOLE_OIDC_CLIENT_ID,
      scope: config.CONSOLE_OIDC_SCOPE,
      audience: config.CONSOLE_OIDC_AUDIENCE || null,
    },
  };
}
