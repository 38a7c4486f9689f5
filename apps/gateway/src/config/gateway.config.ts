import { Transform } from 'class-transformer';
import { IsBoolean, IsInt, IsString, IsUrl, Matches, Max, Min, ValidateIf } from 'class-validator';
import {
  IsRedisUrl,
  ConfigError,
  ProcessConfig,
  SERVICE_NAMES,
  SERVICE_TIME_LIMITS,
  SERVICES,
  envStem,
  loadConfig,
  toBoolean,
  type ServiceName,
} from '@platform/common';

/** Gateway settings; the upstream of each service comes from `<NAME>_URL` (see upstreamUrls). */
export class GatewayConfig extends ProcessConfig {
  @IsInt()
  @Min(1)
  @Max(65535)
  GATEWAY_PORT: number = 8080;

  /** A service that has not answered by then gets the client a 504. */
  @IsInt()
  @Min(100)
  UPSTREAM_TIMEOUT_MS: number = 30_000;

  /**
   * On a long route (the catalogue's `longRoutes`: AI generate, chat, embeddings, agent runs) the
   * gateway waits for the service's own limit plus this, so the service's timeout answer
   * (`504 provider_timeout`) reaches the client rather than the gateway's.
   */
  @IsInt()
  @Min(0)
  UPSTREAM_TIMEOUT_MARGIN_MS: number = 5_000;

  /** The AI runtime's settings of the same name: its long routes' limits (set them for both). */
  @IsInt()
  @Min(500)
  @Max(600_000)
  AI_PROVIDER_TIMEOUT_MS: number = SERVICE_TIME_LIMITS.AI_PROVIDER_TIMEOUT_MS;

  @IsInt()
  @Min(1000)
  @Max(86_400_000)
  AI_AGENT_TIME_BUDGET_MS: number = SERVICE_TIME_LIMITS.AI_AGENT_TIME_BUDGET_MS;

  /** The run service's setting of the same name: how long `GET /run/executions/{id}` may be held (set it for both). */
  @IsInt()
  @Min(1000)
  @Max(600_000)
  EXECUTION_WAIT_MAX_MS: number = SERVICE_TIME_LIMITS.EXECUTION_WAIT_MAX_MS;

  @IsInt()
  @Min(100)
  HEALTH_TIMEOUT_MS: number = 2_000;

  @IsInt()
  @Min(1024)
  UPLOAD_LIMIT_BYTES: number = 100 * 1024 * 1024;

  /** Rate-limit counters, shared by every gateway replica. */
  @IsRedisUrl()
  REDIS_URL: string = 'redis://127.0.0.1:6379';

  @Transform(toBoolean)
  @IsBoolean()
  RATE_LIMIT_ENABLED: boolean = true;

  /** Requests per window for an `sv_live_` key. */
  @IsInt()
  @Min(1)
  RATE_LIMIT_LIVE_PER_MINUTE: number = 600;

  /** Requests per window for an `sv_test_` key (higher than live, spec section 8). */
  @IsInt()
  @Min(1)
  RATE_LIMIT_TEST_PER_MINUTE: number = 1200;

  /** Requests per window for a bearer token, per user and selected tenant. */
  @IsInt()
  @Min(1)
  RATE_LIMIT_USER_PER_MINUTE: number = 600;

  /** Requests per window for a caller without credentials, per client address. */
  @IsInt()
  @Min(1)
  RATE_LIMIT_ANONYMOUS_PER_MINUTE: number = 300;

  /** Deliveries per window to one public webhook address (`/webhooks/in/{id}`), whoever sends them. */
  @IsInt()
  @Min(1)
  RATE_LIMIT_WEBHOOK_PER_MINUTE: number = 6000;

  @IsInt()
  @Min(1)
  @Max(86_400)
  RATE_LIMIT_WINDOW_SECONDS: number = 60;

  /** Plan-based rate limits: the tenant's plan sets its keys' per-minute limits (with rate limiting on). */
  @Transform(toBoolean)
  @IsBoolean()
  PLAN_LIMITS_ENABLED: boolean = true;

  /**
   * Quotas: a live key's request that would use more of a used-up quota is refused (429). A
   * setting of its own, not part of rate limiting: RATE_LIMIT_ENABLED=false leaves quotas on.
   */
  @Transform(toBoolean)
  @IsBoolean()
  QUOTAS_ENABLED: boolean = true;

  /** How often a tenant's cached plan limits (and used-up quotas) are asked for again, besides the changes pushed at once. */
  @IsInt()
  @Min(1000)
  @Max(3_600_000)
  PLAN_LIMITS_REFRESH_MS: number = 30_000;

  /** Where plan limits come from (the subscription service) and their changes arrive. */
  @Matches(/^(nats|tls):\/\/\S+$/, { message: 'must be a nats:// URL' })
  NATS_URL: string = 'nats://127.0.0.1:4222';

  /** Prefix of every NATS subject of this platform (as for the services). */
  @Matches(/^[a-z0-9_-]{0,40}$/, { message: 'must be up to 40 of a-z, 0-9, _ and -' })
  NATS_NAMESPACE: string = '';

  /** Start of every counter's Redis key; tests use one per run so runs never share counters. */
  @Matches(/^[A-Za-z0-9_.:-]+$/, { message: 'must be letters, digits, _ . : or -' })
  RATE_LIMIT_KEY_PREFIX: string = 'rl';

  /** The web console's built files (index.html, assets/), served at /console; empty: apps/console/dist/app of this checkout. */
  @IsString()
  CONSOLE_DIR: string = '';

  /**
   * The identity provider the console signs users in with (OIDC authorization code with PKCE,
   * in the browser); empty: sign-in with an API key only. Its tokens must be ones the services
   * accept (JWT_ISSUER / JWT_JWKS_URL / JWT_AUDIENCE), since the console sends them to the API.
   */
  @ValidateIf((c: GatewayConfig) => c.CONSOLE_OIDC_ISSUER !== '')
  @IsUrl({ require_tld: false, protocols: ['http', 'https'] }, { message: 'must be an http(s) URL' })
  CONSOLE_OIDC_ISSUER: string = '';

  /** The console's client id at that provider: a public client (no secret), redirect URI `<gateway>/console/auth/callback`. */
  @ValidateIf((c: GatewayConfig) => c.CONSOLE_OIDC_ISSUER !== '')
  @Matches(/^\S+$/, { message: 'is required with CONSOLE_OIDC_ISSUER' })
  CONSOLE_OIDC_CLIENT_ID: string = '';

  /** Scopes the console asks for. */
  @Matches(/^[\x21-\x7e]+( [\x21-\x7e]+)*$/, { message: 'must be space-separated scope names' })
  CONSOLE_OIDC_SCOPE: string = 'openid email';

  /** Sent as `audience` in the authorization request, for providers that need it to issue an API token (Auth0 and others); empty: not sent. */
  @IsString()
  CONSOLE_OIDC_AUDIENCE: string = '';
}

export function loadGatewayConfig(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  return loadConfig(GatewayConfig, env);
}

/** `ACCOUNT_URL`, `AI_RUNTIME_URL`, …; each defaults to the service's port on this machine. */
export function upstreamUrls(env: NodeJS.ProcessEnv = process.env): Record<ServiceName, URL> {
  const urls = {} as Record<ServiceName, URL>;
  const problems: string[] = [];
  for (const name of SERVICE_NAMES) {
    const key = `${envStem(name)}_URL`;
    const raw = env[key] || `http://127.0.0.1:${SERVICES[name].port}`;
    try {
      const url = new URL(raw);
      if (url.protocol !== 'http:') throw new Error('protocol');
      urls[name] = url;
    } catch {
      problems.push(`${key}: must be an http:// URL (got '${raw}')`);
    }
  }
  if (problems.length) throw new ConfigError(problems);
  return urls;
}
