import { createServer, type Server } from 'node:http';
import { AggregatorRegistry, type MetricObjectWithValues, type MetricValue } from 'prom-client';
import type { Logger } from 'pino';
import type { ProcessConfig } from '../config/service.config.js';
import { enableMetrics, metricsRegistry } from './metrics.js';

type MetricsJson = MetricObjectWithValues<MetricValue<string>>[];

/** Series kept by another part of the process (a service's worker thread, with a registry of its own). */
export type MetricsSource = () => Promise<MetricsJson>;

const sources = new Set<MetricsSource>();

/** Adds a source whose series are summed into this process's answer; answers its removal. */
export function addMetricsSource(source: MetricsSource): () => void {
  sources.add(source);
  return () => sources.delete(source);
}

/** The registry as JSON, for a thread to hand to its process. */
export function metricsJson(): Promise<MetricsJson> {
  return metricsRegistry.getMetricsAsJSON();
}

/** The text Prometheus scrapes: this registry's series, with the sources' summed in (same names and labels add up). */
export async function scrapeText(): Promise<{ contentType: string; body: string }> {
  if (!sources.size) return { contentType: metricsRegistry.contentType, body: await metricsRegistry.metrics() };
  const parts = await Promise.all([metricsJson(), ...[...sources].map((source) => source().catch(() => [] as MetricsJson))]);
  const merged = AggregatorRegistry.aggregate(parts);
  return { contentType: merged.contentType, body: await merged.metrics() };
}

export interface MetricsServerOptions {
  host: string;
  port: number;
  logger: Pick<Logger, 'info' | 'error'>;
}

/**
 * `GET /metrics` on a port of its own, which the gateway never routes and which a deployment
 * exposes to its Prometheus only (the container's `metrics` port). Anything else is 404. A port
 * that cannot be opened is logged, not fatal: the service serves on without its metrics.
 */
export function startMetricsServer({ host, port, logger }: MetricsServerOptions): Server {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?', 1)[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found\n');
      return;
    }
    scrapeText().then(
      ({ contentType, body }) => res.writeHead(200, { 'content-type': contentType }).end(req.method === 'HEAD' ? undefined : body),
      (error: unknown) => {
        logger.error({ err: (error as Error)?.message }, 'metrics scrape failed');
        res.writeHead(500, { 'content-type': 'text/plain' }).end('metrics unavailable\n');
      },
    );
  });
  server.on('error', (error: NodeJS.ErrnoException) => {
    logger.error({ err: error.code ?? error.message, port }, `metrics cannot listen on ${host}:${port}: serving without /metrics`);
  });
  server.listen(port, host, () => logger.info({ port }, `metrics on http://${host}:${port}/metrics`));
  server.unref();
  return server;
}

/** What METRICS_PORT=0 means: the process's public port plus this. */
export const METRICS_PORT_OFFSET = 1000;

export function metricsPortOf(config: Pick<ProcessConfig, 'METRICS_PORT'>, publicPort: number): number {
  return config.METRICS_PORT || publicPort + METRICS_PORT_OFFSET;
}

/**
 * The one start of a process's metrics (services and gateway): with METRICS_ENABLED, the series
 * are switched on and served on the metrics port; without, nothing is started at all.
 */
export function startProcessMetrics(
  service: string,
  config: Pick<ProcessConfig, 'METRICS_ENABLED' | 'METRICS_PORT' | 'HOST'>,
  publicPort: number,
  logger: MetricsServerOptions['logger'],
): Server | undefined {
  if (!config.METRICS_ENABLED) return undefined;
  enableMetrics(service);
  return startMetricsServer({ host: config.HOST, port: metricsPortOf(config, publicPort), logger });
}
