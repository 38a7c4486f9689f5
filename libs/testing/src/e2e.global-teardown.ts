import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { E2eState } from './e2e.global-setup.js';
import { removeNatsNamespace } from './nats-namespace.js';

/** Stops the platform, any process a test restarted (found by pid file), drops the database and the run's NATS streams. */
export default async function teardown(): Promise<void> {
  const state = (globalThis as { __platformE2e?: E2eState }).__platformE2e;
  if (!state) return;
  await state.platform.stop();
  if (existsSync(state.pidDir)) {
    for (const file of readdirSync(state.pidDir)) {
      const pid = Number(readFileSync(join(state.pidDir, file), 'utf8'));
      try {
        process.kill(pid, 'SIGTERM');
      } catch {
        // already gone
      }
    }
    rmSync(state.pidDir, { recursive: true, force: true });
  }
  await state.issuer.close();
  await state.database.drop();
  const namespace = state.platform.serviceEnv.account?.NATS_NAMESPACE;
  if (namespace) await removeNatsNamespace(namespace);
}
