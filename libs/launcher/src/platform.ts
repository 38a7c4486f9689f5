import { resolve } from 'node:path';
import { METRICS_PORT_OFFSET, SERVICE_NAMES, SERVICES, envStem, type ServiceName } from '@platform/common';
import { freePort } from './ports.js';
import { startProcess, type ManagedProcess } from './process.js';
import { REPO_ROOT } from './repo-root.js';

export interface PlatformOptions {
  databaseUrl: string;
  /** Extra environment for every process (NATS_URL, DOCS_PUBLIC, …). */
  env?: Record<string, string>;
  services?: readonly ServiceName[];
  /** Use the catalogue's fixed ports (npm start) instead of free ones (tests). */
  fixedPorts?: boolean;
  gatewayPort?: number;
  pidDir?: string;
  onLine?: (name: string, line: string, stream: 'stdout' | 'stderr') => void;
  /** Called as each process becomes healthy. */
  onReady?: (name: string, url: string) => void;
}

export interface RunningPlatform {
  gatewayUrl: string;
  serviceUrls: Record<ServiceName, string>;
  /** Environment each service was started with, to restart one the same way. */
  serviceEnv: Record<ServiceName, Record<string, string>>;
  /** Each process's Prometheus endpoint (`…/metrics` on its metrics port, which the gateway never routes). */
  metricsUrls: Record<ServiceName | 'gateway', string>;
  processes: Map<string, ManagedProcess>;
  stop(): Promise<void>;
}

export function serviceEntry(name: ServiceName | 'gateway'): string {
  return resolve(REPO_ROOT, 'apps', name, 'dist/src/main.js');
}

/**
 * Starts the services, then the gateway in front of them, as real processes. Services start
 * two at a time: on a 2-core machine that is as fast as all at once, and a failure names the
 * service that failed instead of timing out thirteen.
 */
export async function startPlatform(options: PlatformOptions): Promise<RunningPlatform> {
  const names = options.services ?? SERVICE_NAMES;
  const processes = new Map<string, ManagedProcess>();
  const serviceUrls = {} as Record<ServiceName, string>;
  const serviceEnv = {} as Record<ServiceName, Record<string, string>>;
  const common = { DATABASE_URL: options.databaseUrl, ...(options.env ?? {}) };
  const metricsUrls = {} as Record<ServiceName | 'gateway', string>;
  // Fixed ports: each metrics port is the default, the process's port + METRICS_PORT_OFFSET; free ports: one more free port each.
  const metricsPort = async (port: number) => (options.fixedPorts ? port + METRICS_PORT_OFFSET : await freePort());
  for (const name of names) {
    const port = options.fixedPorts ? SERVICES[name].port : await freePort();
    const metrics = await metricsPort(port);
    serviceUrls[name] = `http://127.0.0.1:${port}`;
    metricsUrls[name] = `http://127.0.0.1:${metrics}/metrics`;
    serviceEnv[name] = { ...common, PORT: String(port), METRICS_PORT: String(metrics), HOST: '127.0.0.1' };
  }
  const stop = async () => {
    await Promise.all([...processes.values()].reverse().map((p) => p.stop()));
  };
  const start = async (name: string, entry: string, env: Record<string, string>, url: string, healthPath = '/actuator/health') => {
    const managed = await startProcess({
      name,
      entry,
      nodeArgs: SERVICES[name as ServiceName]?.nodeArgs,
      env,
      healthUrl: `${url}${healthPath}`,
      pidDir: options.pidDir,
      onLine: options.onLine ? (line, stream) => options.onLine!(name, line, stream) : undefined,
    });
    processes.set(name, managed);
    options.onReady?.(name, url);
  };
  try {
    const queue = [...names];
    const lane = async () => {
      for (let name = queue.shift(); name; name = queue.shift()) {
        await start(name, serviceEntry(name), serviceEnv[name], serviceUrls[name]);
      }
    };
    await Promise.all([lane(), lane()]);
    const gatewayPort = options.gatewayPort ?? (options.fixedPorts ? 8080 : await freePort());
    const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
    const gatewayMetrics = await metricsPort(gatewayPort);
    metricsUrls.gateway = `http://127.0.0.1:${gatewayMetrics}/metrics`;
    const upstreams = Object.fromEntries(names.map((n) => [`${envStem(n)}_URL`, serviceUrls[n]]));
    await start(
      'gateway',
      serviceEntry('gateway'),
      { ...common, ...upstreams, GATEWAY_PORT: String(gatewayPort), METRICS_PORT: String(gatewayMetrics), HOST: '127.0.0.1' },
      gatewayUrl,
      '/actuator/health/liveness',
    );
    return { gatewayUrl, serviceUrls, serviceEnv, metricsUrls, processes, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
