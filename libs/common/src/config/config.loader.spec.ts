import { describe, expect, it } from '@jest/globals';
// loadConfig relies on the reflect-metadata polyfill, which every service loads first (bootstrap.ts).
import 'reflect-metadata';
import { ConfigError, loadConfig } from './config.loader.js';
import { ServiceConfig } from './service.config.js';

function configError(env: Record<string, string | undefined>, overrides: Partial<Record<keyof ServiceConfig, unknown>> = { PORT: 3000 }): ConfigError {
  try {
    loadConfig(ServiceConfig, env, overrides);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig with ServiceConfig', () => {
  it('applies the defaults when the environment is empty', () => {
    const config = loadConfig(ServiceConfig, {}, { PORT: 3000 });
    expect(config).toBeInstanceOf(ServiceConfig);
    expect({ ...config }).toEqual({
      HOST: '127.0.0.1',
      PORT: 3000,
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/platform',
      NATS_URL: 'nats://127.0.0.1:4222',
      NATS_NAMESPACE: '',
      NATS_STREAM_REPLICAS: 1,
      NATS_STREAM_MAX_BYTES: -1,
      LOG_LEVEL: 'info',
      DOCS_PUBLIC: false,
      SHUTDOWN_TIMEOUT_MS: 10_000,
      BODY_LIMIT_BYTES: 10 * 1024 * 1024,
      DATABASE_POOL_SIZE: 10,
      DATABASE_PREPARED_STATEMENTS: true,
      NODE_ENV: 'development',
      PLATFORM_IO_COUNTERS: false,
      METRICS_ENABLED: true,
      METRICS_PORT: 0,
      JWT_JWKS_URL: '',
      JWT_ISSUER: '',
      JWT_AUDIENCE: '',
      JWT_CLOCK_TOLERANCE_SECONDS: 30,
      KEY_CACHE_TTL_MS: 5000,
      USAGE_OUTBOX_GRACE_MS: 2000,
      USAGE_OUTBOX_RELAY_MS: 1000,
      USAGE_OUTBOX_GIVE_UP_MS: 604_800_000,
      PLATFORM_ADMIN_TOKEN: '',
      AUTH_MODE: 'credentials',
      MASTER_KEYS: '',
      MASTER_KEYS_FILE: '',
      MASTER_KEY: '',
      MASTER_KEY_FILE: '.data/master.key',
    });
  });

  it('takes stream replicas of 1 to 5 and a stream size of -1 or more than 0 bytes', () => {
    expect(loadConfig(ServiceConfig, { NATS_STREAM_REPLICAS: '3', NATS_STREAM_MAX_BYTES: '1073741824' }, { PORT: 3000 })).toMatchObject({
      NATS_STREAM_REPLICAS: 3,
      NATS_STREAM_MAX_BYTES: 1073741824,
    });
    const error = configError({ NATS_STREAM_REPLICAS: '7', NATS_STREAM_MAX_BYTES: '0' }, { PORT: 3000 });
    expect(error.problems.map((p) => p.split(':')[0]).sort()).toEqual(['NATS_STREAM_MAX_BYTES', 'NATS_STREAM_REPLICAS']);
  });

  it('sends prepared statements unnamed behind a pooler that cannot keep them', () => {
    expect(loadConfig(ServiceConfig, { DATABASE_PREPARED_STATEMENTS: 'false' }, { PORT: 3000 }).DATABASE_PREPARED_STATEMENTS).toBe(false);
    expect(configError({ DATABASE_PREPARED_STATEMENTS: 'off' }).problems[0]).toMatch(/^DATABASE_PREPARED_STATEMENTS: /);
  });

  it('refuses a short admin token and a JWKS URL that is not http(s)', () => {
    const error = configError({ PLATFORM_ADMIN_TOKEN: 'short', JWT_JWKS_URL: 'ftp://idp/jwks' }, { PORT: 3000 });
    expect(error.problems.map((p) => p.split(':')[0]).sort()).toEqual(['JWT_JWKS_URL', 'PLATFORM_ADMIN_TOKEN']);
  });

  it('takes the IO counters of tests, but never in production', () => {
    expect(loadConfig(ServiceConfig, { PLATFORM_IO_COUNTERS: 'true', NODE_ENV: 'test' }, { PORT: 3000 }).PLATFORM_IO_COUNTERS).toBe(true);
    expect(configError({ PLATFORM_IO_COUNTERS: 'true', NODE_ENV: 'production', MASTER_KEY: 'x' }).problems).toEqual([
      "PLATFORM_IO_COUNTERS: must not be true when NODE_ENV=production: /actuator/io-counters is unauthenticated (got 'true')",
    ]);
    expect(configError({ PLATFORM_IO_COUNTERS: 'maybe' }).problems[0]).toMatch(/^PLATFORM_IO_COUNTERS: /);
  });

  it('requires a PORT: neither the environment nor the overrides giving one is an error', () => {
    const error = configError({}, {});
    expect(error.problems).toHaveLength(1);
    expect(error.problems[0]).toMatch(/^PORT: .*\(not set\)$/);
  });

  it('reads string settings from the environment', () => {
    const config = loadConfig(
      ServiceConfig,
      { HOST: '0.0.0.0', LOG_LEVEL: 'debug', NATS_URL: 'tls://nats.internal:4222', NODE_ENV: 'production' },
      { PORT: 3000 },
    );
    expect(config).toMatchObject({ HOST: '0.0.0.0', LOG_LEVEL: 'debug', NATS_URL: 'tls://nats.internal:4222', NODE_ENV: 'production' });
  });

  it.each(['true', '1', 'YES'])("reads DOCS_PUBLIC='%s' as true", (raw) => {
    expect(loadConfig(ServiceConfig, { DOCS_PUBLIC: raw }, { PORT: 3000 }).DOCS_PUBLIC).toBe(true);
  });

  it('converts numeric strings to numbers', () => {
    const config = loadConfig(ServiceConfig, { PORT: '4000', SHUTDOWN_TIMEOUT_MS: '5000', BODY_LIMIT_BYTES: '2048', DATABASE_POOL_SIZE: '25' }, { PORT: 3000 });
    expect(config.PORT).toBe(4000);
    expect(config.SHUTDOWN_TIMEOUT_MS).toBe(5000);
    expect(config.BODY_LIMIT_BYTES).toBe(2048);
    expect(config.DATABASE_POOL_SIZE).toBe(25);
  });

  it('rejects a fractional number', () => {
    const error = configError({ PORT: '3000.5' });
    expect(error.problems).toHaveLength(1);
    expect(error.problems[0]).toMatch(/^PORT: .*integer.*\(got '3000\.5'\)$/);
  });

  it.each([
    ['PORT', 'abc', 'must be an integer number'],
    ['PORT', '70000', 'must not be greater than 65535'],
    ['DATABASE_URL', 'mysql://x', 'must be a postgres:// URL'],
    ['NATS_URL', 'http://nats:4222', 'must be a nats:// URL'],
    ['LOG_LEVEL', 'loud', 'must be one of the following values'],
    ['NODE_ENV', 'staging', 'must be one of the following values'],
  ])('reports %s=%s naming the variable and the value given', (name, value, rule) => {
    const error = configError({ [name]: value });
    expect(error.problems).toHaveLength(1);
    expect(error.problems[0].startsWith(`${name}: `)).toBe(true);
    expect(error.problems[0]).toContain(rule);
    expect(error.problems[0]).toContain(`(got '${value}')`);
  });

  it('reports several problems at once', () => {
    const error = configError({ PORT: 'abc', DATABASE_URL: 'mysql://x', LOG_LEVEL: 'loud' });
    expect(error.problems.map((p) => p.split(':')[0]).sort()).toEqual(['DATABASE_URL', 'LOG_LEVEL', 'PORT']);
    expect(error.name).toBe('ConfigError');
    for (const problem of error.problems) expect(error.message).toContain(problem);
  });

  it('takes PORT from the overrides when the environment has none', () => {
    expect(loadConfig(ServiceConfig, {}, { PORT: 4100 }).PORT).toBe(4100);
  });

  it('treats an empty environment value as unset, falling back to the override', () => {
    expect(loadConfig(ServiceConfig, { PORT: '' }, { PORT: 4100 }).PORT).toBe(4100);
  });

  it('lets the environment win over an override', () => {
    expect(loadConfig(ServiceConfig, { PORT: '4000' }, { PORT: 3000 }).PORT).toBe(4000);
    expect(loadConfig(ServiceConfig, { LOG_LEVEL: 'warn' }, { PORT: 3000, LOG_LEVEL: 'debug' }).LOG_LEVEL).toBe('warn');
  });

  it('ignores environment variables that are not settings', () => {
    expect(loadConfig(ServiceConfig, { UNRELATED: 'x' }, { PORT: 3000 })).not.toHaveProperty('UNRELATED');
  });

  it.each(['false', '0', 'no', 'FALSE'])("reads DOCS_PUBLIC='%s' as false", (raw) => {
    expect(loadConfig(ServiceConfig, { DOCS_PUBLIC: raw }, { PORT: 3000 }).DOCS_PUBLIC).toBe(false);
  });

  it('rejects a DOCS_PUBLIC that is neither true nor false', () => {
    expect(() => loadConfig(ServiceConfig, { DOCS_PUBLIC: 'maybe' }, { PORT: 3000 })).toThrow(/DOCS_PUBLIC.*maybe/);
  });
});
