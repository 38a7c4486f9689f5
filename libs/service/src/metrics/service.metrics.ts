import type { Server } from 'node:http';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { startProcessMetrics, type ServiceConfig } from '@platform/common';
import type { Logger } from 'pino';
import { httpMetricsMiddleware } from './http.metrics.js';

/**
 * A service's metrics, from its bootstrap: the series switched on, `/metrics` served on the
 * metrics port (METRICS_PORT, else PORT + 1000) and every request observed. METRICS_ENABLED=false:
 * nothing of it. Answers how to stop the metrics server.
 */
export function startServiceMetrics(app: NestExpressApplication, service: string, config: ServiceConfig, logger: Logger): () => void {
  const server: Server | undefined = startProcessMetrics(service, config, config.PORT, logger);
  if (server) app.use(httpMetricsMiddleware);
  return () => server?.close();
}
