import type { IoCounts, IoCountsReport } from '@platform/common';
import { call } from './http-client.js';
import { e2eEnvironment } from './e2e-environment.js';

/** Every process of the e2e platform by name, the gateway first, with its own URL. */
export function platformProcesses(): [string, string][] {
  const env = e2eEnvironment();
  return [['gateway', env.gatewayUrl], ...Object.entries(env.serviceUrls)];
}

/**
 * A process's IO counts (PLATFORM_IO_COUNTERS) for the requests whose ids start with `prefix`,
 * read from the process itself, not through the gateway.
 */
export async function readIoCounters(url: string, prefix: string): Promise<IoCountsReport> {
  const res = await call<IoCountsReport>(url, `/actuator/io-counters?request_id_prefix=${encodeURIComponent(prefix)}`);
  if (res.status !== 200) throw new Error(`${url}/actuator/io-counters answered ${res.status}: is PLATFORM_IO_COUNTERS on?`);
  return res.body;
}

export type { IoCounts };
