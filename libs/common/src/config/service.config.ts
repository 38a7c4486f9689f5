import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsString, IsUrl, Matches, Max, Min, ValidateBy, ValidateIf } from 'class-validator';

/**
 * Reads the raw setting: implicit conversion has already turned 'false' into Boolean('false'),
 * i.e. true, by the time `value` arrives. Anything but a known spelling stays a string and fails
 * validation.
 */
export const toBoolean = ({ obj, key }: { obj: Record<string, unknown>; key: string }): unknown => {
  const raw = obj[key];
  if (typeof raw === 'boolean') return raw;
  const text = String(raw).toLowerCase();
  if (['true', '1', 'yes'].includes(text)) return true;
  if (['false', '0', 'no'].includes(text)) return false;
  return raw;
};

/**
 * Settings every process reads, the gateway included; each declares them once here. Names are
 * the environment variables (docs/configuration.md lists them).
 */
export class ProcessConfig {
  @IsString()
  HOST: string = '127.0.0.1';

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL: string = 'info';

  @IsInt()
  @Min(0)
  @Max(600_000)
  SHUTDOWN_TIMEOUT_MS: number = 10_000;

  @IsInt()
  @Min(1024)
  BODY_LIMIT_BYTES: number = 10 * 1024 * 1024;

  @IsIn(['development', 'production', 'test'])
  NODE_ENV: string = 'development';

  /**
   * Tests only: count database round trips and NATS/JetStream messages per request and serve them
   * at `/actuator/io-counters` (unauthenticated, hence refused in production). See io-counters.ts.
   */
  @Transform(toBoolean)
  @IsBoolean()
  @ValidateBy({
    name: 'notInProduction',
    validator: {
      validate: (value: unknown, args) => !(value === true && (args?.object as ProcessConfig).NODE_ENV === 'production'),
      defaultMessage: () => 'must not be true when NODE_ENV=production: /actuator/io-counters is unauthenticated',
    },
  })
  PLATFORM_IO_COUNTERS: boolean = false;

  /** Prometheus metrics at `/metrics` on METRICS_PORT (docs/operations.md); false: no series, no server, no collectors. */
  @Transform(toBoolean)
  @IsBoolean()
  METRICS_ENABLED: boolean = true;

  /** The metrics port, never the public one; 0: the process's own port + 1000 (services 9101–9113, the gateway 9080). */
  @IsInt()
  @Min(0)
  @Max(65535)
  METRICS_PORT: number = 0;
}

/** Settings every service reads, on top of every process's. */
export class ServiceConfig extends ProcessConfig {
  @IsInt()
  @Min(1)
  @Max(65535)
  PORT: number = 0;

  @Matches(/^postgres(ql)?:\/\/\S+$/, { message: 'must be a postgres:// URL' })
  DATABASE_URL: string = 'postgres://postgres@127.0.0.1:5432/platform';

  @Matches(/^(nats|tls):\/\/\S+$/, { message: 'must be a nats:// URL' })
  NATS_URL: string = 'nats://127.0.0.1:4222';

  /** Prefix of every NATS subject and stream of this platform, so platforms sharing a NATS server stay apart. */
  @Matches(/^[a-z0-9_-]{0,40}$/, { message: 'must be up to 40 of a-z, 0-9, _ and -' })
  NATS_NAMESPACE: string = '';

  /**
   * Replicas of each JetStream stream the service creates (3 in a three-node NATS cluster). A
   * stream that exists keeps its own replicas: a start-up never undoes an operator's change.
   */
  @IsInt()
  @Min(1)
  @Max(5)
  NATS_STREAM_REPLICAS: number = 1;

  /** Largest size in bytes of each stream the service creates; -1: unlimited. A full work queue refuses new items. */
  @IsInt()
  @ValidateBy({
    name: 'unlimitedOrPositive',
    validator: {
      validate: (value: unknown) => value === -1 || (typeof value === 'number' && value >= 1),
      defaultMessage: () => 'must be -1 (unlimited) or a positive number of bytes',
    },
  })
  NATS_STREAM_MAX_BYTES: number = -1;

  @Transform(toBoolean)
  @IsBoolean()
  DOCS_PUBLIC: boolean = false;

  @IsInt()
  @Min(1)
  @Max(200)
  DATABASE_POOL_SIZE: number = 10;

  /**
   * False when DATABASE_URL points at a pooler in transaction mode that cannot keep prepared
   * statements (PgBouncer before 1.21): the services' prepared statements are then sent unnamed,
   * parsed on every call. True (the default) prepares them once per connection.
   */
  @Transform(toBoolean)
  @IsBoolean()
  DATABASE_PREPARED_STATEMENTS: boolean = true;

  /** Identity provider for bearer JWTs: a JWKS URL, or an issuer whose OIDC discovery names one. */
  @ValidateIf((c: ServiceConfig) => c.JWT_JWKS_URL !== '')
  @IsUrl({ require_tld: false, protocols: ['http', 'https'] }, { message: 'must be an http(s) URL' })
  JWT_JWKS_URL: string = '';

  @ValidateIf((c: ServiceConfig) => c.JWT_ISSUER !== '')
  @IsUrl({ require_tld: false, protocols: ['http', 'https'] }, { message: 'must be an http(s) URL' })
  JWT_ISSUER: string = '';

  @IsString()
  JWT_AUDIENCE: string = '';

  @IsInt()
  @Min(0)
  @Max(120)
  JWT_CLOCK_TOLERANCE_SECONDS: number = 30;

  /** How long a verified API key is trusted before asking the account service again; revocation drops it at once. */
  @IsInt()
  @Min(0)
  @Max(60_000)
  KEY_CACHE_TTL_MS: number = 5000;

  /** Metering services: how long a usage fact may wait in the outbox for its own publish before the relay takes it. */
  @IsInt()
  @Min(0)
  @Max(600_000)
  USAGE_OUTBOX_GRACE_MS: number = 2000;

  /** Metering services: how often the relay looks for usage facts left in the outbox (NATS down, a crash after a commit). */
  @IsInt()
  @Min(100)
  @Max(600_000)
  USAGE_OUTBOX_RELAY_MS: number = 1000;

  /**
   * Metering services: a usage fact still failing to publish this long after it was written (NATS
   * down all along) is given up by the relay: kept in the outbox with publish_failed_at, counted in
   * `usage_outbox_failed`, no longer tried. Long, since a given-up fact is not billed.
   */
  @IsInt()
  @Min(3_600_000)
  @Max(90 * 86_400_000)
  USAGE_OUTBOX_GIVE_UP_MS: number = 7 * 86_400_000;

  /** Bearer token for system routes (initial tenant creation over HTTP); empty disables them for admins. */
  @ValidateIf((c: ServiceConfig) => c.PLATFORM_ADMIN_TOKEN !== '')
  @Matches(/^\S{32,}$/, { message: 'must be at least 32 characters without spaces' })
  PLATFORM_ADMIN_TOKEN: string = '';

  /** `bench-static` skips authentication for benchmarks; refused when NODE_ENV=production. */
  @IsIn(['credentials', 'bench-static'])
  AUTH_MODE: string = 'credentials';

  /** The master key ring: base64 of 32 bytes each, comma-separated, current first (see resolveMasterKeys). */
  @IsString()
  MASTER_KEYS: string = '';

  /** The ring read from a file (a mounted secret), when neither MASTER_KEYS nor MASTER_KEY is set; never generated. */
  @IsString()
  MASTER_KEYS_FILE: string = '';

  /** One master key (a one-key ring); in development generated into MASTER_KEY_FILE when no key is set. */
  @IsString()
  MASTER_KEY: string = '';

  @IsString()
  MASTER_KEY_FILE: string = '.data/master.key';
}
