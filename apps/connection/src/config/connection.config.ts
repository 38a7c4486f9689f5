import { Transform } from 'class-transformer';
import { IsBoolean, IsInt, IsString, Max, Min } from 'class-validator';
import { loadConfig, toBoolean } from '@platform/common';

/** The connection service's own settings (environment variables). */
export class ConnectionConfig {
  /** Allow connector operations and OAuth calls to reach private, loopback and link-local addresses (tests, on-premise systems). */
  @Transform(toBoolean)
  @IsBoolean()
  CONNECTION_ALLOW_PRIVATE_NETWORKS: boolean = false;

  /** How long one operation call (or token request) may take. */
  @IsInt()
  @Min(500)
  @Max(300_000)
  CONNECTION_TIMEOUT_MS: number = 30_000;

  /**
   * The largest remote answer read, in bytes (PostgreSQL: of the rows returned). Answers travel
   * back to the engine in one NATS message (1 MiB by default), so the default stays under that.
   */
  @IsInt()
  @Min(1024)
  @Max(64 * 1024 * 1024)
  CONNECTION_RESPONSE_LIMIT_BYTES: number = 768 * 1024;

  /** Where the OAuth provider sends the user back: the public URL of `GET /connections/oauth/callback` (through the gateway). */
  @IsString()
  CONNECTION_OAUTH_REDIRECT_URL: string = 'http://127.0.0.1:8080/connections/oauth/callback';

  /** An access token this close to its expiry is refreshed before use. */
  @IsInt()
  @Min(0)
  @Max(3600)
  CONNECTION_REFRESH_MARGIN_SECONDS: number = 60;
}

export const CONNECTION_CONFIG = Symbol('CONNECTION_CONFIG');

export function loadConnectionConfig(env: Record<string, string | undefined> = process.env): ConnectionConfig {
  return loadConfig(ConnectionConfig, env);
}
