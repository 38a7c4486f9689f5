import type { ServiceName } from '@platform/common';

/** What the e2e global setup tells test files (through the environment, which workers inherit). */
export interface E2eEnvironment {
  gatewayUrl: string;
  databaseUrl: string;
  databaseName: string;
  serviceUrls: Record<ServiceName, string>;
  serviceEnv: Record<ServiceName, Record<string, string>>;
  /** Each process's `/metrics` URL on its metrics port. */
  metricsUrls: Record<ServiceName | 'gateway', string>;
  pidDir: string;
  /** Where every platform process's output is written, one `<name>.log` each. */
  logDir: string;
  /** PLATFORM_ADMIN_TOKEN of the run, for system routes (tenant creation). */
  adminToken: string;
  jwt: { signUrl: string; issuer: string; audience: string };
}

const KEY = 'PLATFORM_E2E';

export function publishE2eEnvironment(env: E2eEnvironment): void {
  process.env[KEY] = JSON.stringify(env);
}

export function e2eEnvironment(): E2eEnvironment {
  const raw = process.env[KEY];
  if (!raw) throw new Error(`${KEY} is not set: e2e tests run through the e2e Jest project (npm run test:e2e)`);
  return JSON.parse(raw) as E2eEnvironment;
}
