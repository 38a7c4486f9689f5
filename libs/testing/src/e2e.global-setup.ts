import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPlatform, type RunningPlatform } from './platform.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';
import { publishE2eEnvironment } from './e2e-environment.js';

export interface E2eState {
  platform: RunningPlatform;
  database: TestDatabase;
  pidDir: string;
}

/** Settings every e2e platform runs with; tests that need others start their own processes. */
export const E2E_ENV: Record<string, string> = {
  DOCS_PUBLIC: 'true',
  LOG_LEVEL: 'warn',
  NODE_ENV: 'test',
};

/** Jest global setup: one database and one platform (gateway + thirteen services) per run. */
export default async function setup(): Promise<void> {
  const started = Date.now();
  const database = await createTestDatabase('e2e');
  const pidDir = mkdtempSync(join(tmpdir(), 'platform-e2e-'));
  const platform = await startPlatform({ databaseUrl: database.url, env: E2E_ENV, pidDir });
  publishE2eEnvironment({
    gatewayUrl: platform.gatewayUrl,
    databaseUrl: database.url,
    databaseName: database.name,
    serviceUrls: platform.serviceUrls,
    serviceEnv: platform.serviceEnv,
    pidDir,
  });
  (globalThis as { __platformE2e?: E2eState }).__platformE2e = { platform, database, pidDir };
  process.stdout.write(`\n[e2e] platform up in ${((Date.now() - started) / 1000).toFixed(1)} s at ${platform.gatewayUrl} (database ${database.name})\n`);
}
