import { randomBytes } from 'node:crypto';
import { appendFileSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPlatform, type RunningPlatform } from '@platform/launcher';
import { createTestDatabase, type TestDatabase } from './test-database.js';
import { publishE2eEnvironment } from './e2e-environment.js';
import { startTokenIssuer, type TokenIssuer } from './token-issuer.js';

export interface E2eState {
  platform: RunningPlatform;
  database: TestDatabase;
  pidDir: string;
  issuer: TokenIssuer;
}

/** Settings every e2e platform runs with; tests that need others start their own processes. */
export const E2E_ENV: Record<string, string> = {
  DOCS_PUBLIC: 'true',
  LOG_LEVEL: 'warn',
  NODE_ENV: 'test',
  KEY_EXPIRY_SWEEP_MS: '300',
  // Keys about to expire are announced within half a second (api_key_expiring notices).
  KEY_EXPIRY_NOTICE_INTERVAL_MS: '500',
  // Quick takeover of a killed worker's executions, and quick wake-ups.
  RUN_LEASE_MS: '3000',
  RUN_RECONCILE_INTERVAL_MS: '250',
  // Notification tests deliver to stand-in servers on loopback, with quick retries.
  NOTIFICATION_ALLOW_PRIVATE_NETWORKS: 'true',
  NOTIFICATION_RETRY_BASE_MS: '200',
  NOTIFICATION_MAX_ATTEMPTS: '4',
  NOTIFICATION_RECONCILE_AFTER_MS: '5000',
  // AI tests call a stand-in OpenAI-compatible server on loopback; its `slow` model outlasts this timeout.
  AI_ALLOW_PRIVATE_NETWORKS: 'true',
  AI_PROVIDER_TIMEOUT_MS: '2000',
  // KB tests fetch documents from loopback, and a killed indexer's document comes back quickly.
  KB_ALLOW_PRIVATE_NETWORKS: 'true',
  KB_INDEX_LEASE_MS: '3000',
  // Round trips and messages counted per request, for the round-trip budget test (a boolean check each otherwise).
  PLATFORM_IO_COUNTERS: 'true',
};

export const E2E_AUDIENCE = 'platform-api';

/** Jest global setup: one database and one platform (gateway + thirteen services) per run. */
export default async function setup(): Promise<void> {
  const started = Date.now();
  const database = await createTestDatabase('e2e');
  const pidDir = mkdtempSync(join(tmpdir(), 'platform-e2e-'));
  const issuer = await startTokenIssuer();
  const adminToken = randomBytes(32).toString('base64url');
  const env = {
    ...E2E_ENV,
    PLATFORM_ADMIN_TOKEN: adminToken,
    MASTER_KEY: randomBytes(32).toString('base64'),
    JWT_JWKS_URL: issuer.jwks.jwksUrl,
    JWT_ISSUER: issuer.jwks.issuer,
    JWT_AUDIENCE: E2E_AUDIENCE,
    // The console signs users in at the same test provider (its login page, then PKCE).
    CONSOLE_OIDC_ISSUER: issuer.jwks.issuer,
    CONSOLE_OIDC_CLIENT_ID: 'platform-console-e2e',
    CONSOLE_OIDC_AUDIENCE: E2E_AUDIENCE,
    // This run's own NATS subjects and streams: another platform on the same server never answers it.
    NATS_NAMESPACE: `e2e-${randomBytes(4).toString('hex')}`,
    // And its own rate-limit counters in Redis.
    RATE_LIMIT_KEY_PREFIX: `rl-e2e-${randomBytes(4).toString('hex')}`,
  };
  // Every process's output goes to <logDir>/<name>.log, kept after the run to read failures.
  const logDir = join(tmpdir(), `platform-e2e-logs-${database.name}`);
  mkdirSync(logDir, { recursive: true });
  const platform = await startPlatform({
    databaseUrl: database.url,
    env,
    pidDir,
    onLine: (name, line) => appendFileSync(join(logDir, `${name}.log`), `${line}\n`),
  });
  publishE2eEnvironment({
    gatewayUrl: platform.gatewayUrl,
    databaseUrl: database.url,
    databaseName: database.name,
    serviceUrls: platform.serviceUrls,
    serviceEnv: platform.serviceEnv,
    metricsUrls: platform.metricsUrls,
    pidDir,
    logDir,
    adminToken,
    jwt: { signUrl: issuer.signUrl, issuer: issuer.jwks.issuer, audience: E2E_AUDIENCE },
  });
  (globalThis as { __platformE2e?: E2eState }).__platformE2e = { platform, database, pidDir, issuer };
  process.stdout.write(
    `\n[e2e] platform up in ${((Date.now() - started) / 1000).toFixed(1)} s at ${platform.gatewayUrl} (database ${database.name}; logs in ${logDir})\n`,
  );
}
