import type { Server } from 'node:http';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { Logger } from 'pino';
import { SERVICE_NAMES, errorBody, resolveRequestId, type ServiceName } from '@platform/common';
import type { GatewayConfig } from './config/gateway.config.js';
import { docsRoutes } from './docs/docs.routes.js';
import { aggregateHealth } from './health/aggregate-health.js';
import { createProxy, type GatewayRequest } from './proxy/proxy.js';
import { RouteTable } from './routing/route-table.js';

export interface GatewayDeps {
  config: GatewayConfig;
  upstreams: Record<ServiceName, URL>;
  logger: Logger;
}

/**
 * The edge: request ids, routing by path prefix, aggregated health and docs. It parses no
 * bodies and touches no database; authentication happens in each service's TenantGuard.
 */
export function createGatewayApp({ config, upstreams, logger }: GatewayDeps) {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.set('trust proxy', 'loopback, linklocal, uniquelocal');
  const routes = new RouteTable();
  const proxy = createProxy({ upstreams, timeoutMs: config.UPSTREAM_TIMEOUT_MS, bodyLimit: config.BODY_LIMIT_BYTES, uploadLimit: config.UPLOAD_LIMIT_BYTES, logger });

  app.use((req: Request, res: Response, next: NextFunction) => {
    const started = performance.now();
    const id = resolveRequestId(req.headers['x-request-id']);
    (req as unknown as GatewayRequest).id = id;
    res.setHeader('x-request-id', id);
    res.on('finish', () => {
      logger.info({ req_id: id, method: req.method, url: req.originalUrl, status: res.statusCode, ms: Math.round((performance.now() - started) * 100) / 100 }, 'request');
    });
    next();
  });

  app.get('/actuator/health', async (_req, res) => {
    const health = await aggregateHealth(upstreams, config.HEALTH_TIMEOUT_MS);
    res.status(health.status === 'UP' ? 200 : 503).json(health);
  });
  app.get('/actuator/health/liveness', (_req, res) => {
    res.json({ status: 'UP' });
  });

  app.use(docsRoutes(upstreams, config.HEALTH_TIMEOUT_MS * 2));
  app.get('/v3/api-docs/:service', (req, res, next) => {
    const service = req.params.service as ServiceName;
    if (!SERVICE_NAMES.includes(service)) return next();
    proxy.forward(req as unknown as GatewayRequest, res, { service, upstreamPath: '/v3/api-docs' });
  });

  app.use((req, res, next) => {
    const route = routes.match(req.originalUrl);
    if (!route) return next();
    proxy.forward(req as unknown as GatewayRequest, res, route);
  });

  app.use((req: Request, res: Response) => {
    res.status(404).json(errorBody(404, `No route for ${req.method} ${req.path}`, (req as unknown as GatewayRequest).id));
  });

  // Express's own failures (a malformed URL, say) still answer in the error shape.
  app.use((error: Error & { status?: number }, req: Request, res: Response, _next: NextFunction) => {
    const status = error.status && error.status >= 400 && error.status < 500 ? error.status : 500;
    if (status === 500) logger.error({ err: error.message, stack: error.stack }, 'gateway error');
    res.status(status).json(errorBody(status, status === 500 ? 'Internal server error' : error.message, (req as unknown as GatewayRequest).id));
  });

  return { app, close: () => proxy.close() };
}

export type GatewayServer = Server;
