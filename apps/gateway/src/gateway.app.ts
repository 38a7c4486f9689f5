import type { IncomingMessage, ServerResponse } from 'node:http';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { Logger } from 'pino';
import {
  SERVICE_NAMES,
  SpanKind,
  currentTraceIds,
  endWithResponse,
  errorBody,
  extractTraceContext,
  ioCountersHandler,
  metricsEnabled,
  resolveRequestId,
  runInRequestContext,
  startSpan,
  traceContext,
  tracingEnabled,
  type ServiceName,
} from '@platform/common';
import type { GatewayConfig } from './config/gateway.config.js';
import { CONSOLE_PATH, consoleDir, consoleRoutes } from './console/console.routes.js';
import { consoleSettings } from './console/console.settings.js';
import { docsRoutes } from './docs/docs.routes.js';
import { aggregateHealth } from './health/aggregate-health.js';
import { createProxy, type GatewayRequest } from './proxy/proxy.js';
import { RouteTimeouts } from './proxy/route-timeouts.js';
import { natsPlanChannel } from './plan-limits/plan-channel.js';
import { PlanDirectory } from './plan-limits/plan-directory.js';
import { QuotaGate, quotaExceeded } from './plan-limits/quotas.js';
import { observeRequest } from './metrics/gateway.metrics.js';
import { identifyCaller } from './rate-limit/caller.js';
import { createRateLimiter } from './rate-limit/rate-limiter.js';
import { RouteTable, type RouteMatch } from './routing/route-table.js';

export interface GatewayDeps {
  config: GatewayConfig;
  upstreams: Record<ServiceName, URL>;
  logger: Logger;
}

/**
 * The edge: request ids, rate limits, routing by path prefix, aggregated health and docs. It
 * parses no bodies and touches no database; authentication happens in each service's TenantGuard.
 */
export function createGatewayApp({ config, upstreams, logger }: GatewayDeps) {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.set('trust proxy', 'loopback, linklocal, uniquelocal');
  const routes = new RouteTable();
  const countingIo = config.PLATFORM_IO_COUNTERS;
  // Quotas and rate limits are separate settings: either needs what the plan directory knows.
  const planRateLimits = config.RATE_LIMIT_ENABLED && config.PLAN_LIMITS_ENABLED;
  const channel = planRateLimits || config.QUOTAS_ENABLED ? natsPlanChannel({ url: config.NATS_URL, namespace: config.NATS_NAMESPACE, logger }) : undefined;
  const plans = channel && new PlanDirectory(channel, config.PLAN_LIMITS_REFRESH_MS);
  const quotas = plans && config.QUOTAS_ENABLED ? new QuotaGate(plans) : undefined;
  const proxy = createProxy({
    upstreams,
    timeouts: new RouteTimeouts(config),
    bodyLimit: config.BODY_LIMIT_BYTES,
    uploadLimit: config.UPLOAD_LIMIT_BYTES,
    logger,
    // Only credentials are mapped to tenants (a webhook delivery's answer is shaped by a workflow, so it is never trusted for this).
    onTenant: plans && ((req, tenantId) => isCredential(req.callerId) && plans.learn(req.callerId, tenantId)),
  });
  const limiter = config.RATE_LIMIT_ENABLED ? createRateLimiter(config, logger, planRateLimits ? plans : undefined) : undefined;
  // Without limiter or quotas the gateway need not tell callers apart at all.
  const identifying = limiter !== undefined || plans !== undefined;

  app.get('/actuator/health', async (_req, res) => {
    const health = await aggregateHealth(upstreams, config.HEALTH_TIMEOUT_MS);
    // Redis or NATS down: the gateway still serves (without limits, or with the plan limits it has), so it is degraded, not down.
    const redis = limiter ? limiter.redisStatus() : 'DISABLED';
    const nats = channel ? (channel.connected() ? 'UP' : 'DOWN') : 'DISABLED';
    const degraded = redis === 'DOWN' || nats === 'DOWN';
    const status = health.status === 'UP' && degraded ? 'DEGRADED' : health.status;
    res.status(health.status === 'UP' ? 200 : 503).json({
      status,
      gateway: { status: degraded ? 'DEGRADED' : 'UP', components: { redis: { status: redis }, nats: { status: nats } } },
      services: health.services,
    });
  });
  app.get('/actuator/health/liveness', (_req, res) => {
    res.json({ status: 'UP' });
  });
  // Tests only (PLATFORM_IO_COUNTERS): the gateway's Redis commands, NATS requests and forwarded requests, per request.
  if (config.PLATFORM_IO_COUNTERS) app.get('/actuator/io-counters', ioCountersHandler);
  app.use(docsRoutes(upstreams, config.HEALTH_TIMEOUT_MS * 2));
  app.use(consoleRoutes(consoleDir(config.CONSOLE_DIR), consoleSettings(config)));
  app.get('/v3/api-docs/:service', (req, res, next) => {
    const service = req.params.service as ServiceName;
    if (!SERVICE_NAMES.includes(service)) return next();
    proxy.forward(req as unknown as GatewayRequest, res, { service, upstreamPath: '/v3/api-docs' });
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

  /**
   * Every request starts here. Proxied traffic, nearly all of it, goes straight to the proxy:
   * Express's middleware stack would cost more CPU than the proxying itself. The gateway's own
   * pages (aggregated health, docs, explorer, 404) are served by the Express app. Everything but
   * health passes the quota check (in memory) and the rate limiter (one Redis round trip) first.
   */
  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const request = req as GatewayRequest;
    request.id = resolveRequestId(req.headers['x-request-id']);
    // Counting IO per request needs the request's context; without the counters, no context is made.
    if (tracingEnabled()) traced(request, res);
    else if (countingIo) runInRequestContext({ requestId: request.id }, () => serve(request, res));
    else serve(request, res);
  };

  /** With tracing on: the request in a server span (continuing the caller's trace), its log lines naming it. */
  const traced = (request: GatewayRequest, res: ServerResponse): void => {
    const method = request.method ?? 'GET';
    // Named by the service it goes to: paths carry ids, and span names should be few.
    const route = routes.match(request.url ?? '/');
    const service = route?.service;
    const attributes = () => ({
      'http.request.method': method,
      'url.path': (request.url ?? '/').split('?')[0],
      ...(service ? { 'platform.service': service } : {}),
    });
    const { span, context } = startSpan(service ? `${method} ${service}` : method, SpanKind.SERVER, attributes, extractTraceContext(request.headers));
    request.traceContext = context;
    endWithResponse(res, span);
    // The context is active while `serve` runs synchronously (the access log line reads it); past
    // that, the proxy and the error logs take it from `request.traceContext`.
    const run = () => serve(request, res, route);
    traceContext.with(context, countingIo ? () => runInRequestContext({ requestId: request.id }, run) : run);
  };

  const serve = (request: GatewayRequest, res: ServerResponse, route = routes.match(request.url ?? '/')): void => {
    const req: IncomingMessage = request;
    const started = performance.now();
    res.setHeader('x-request-id', request.id);
    const url = req.url ?? '/';
    if (logger.isLevelEnabled('info')) {
      const trace = currentTraceIds();
      res.once('finish', () => {
        logger.info(
          { request_id: request.id, ...trace, method: req.method, url, status: res.statusCode, ms: Math.round((performance.now() - started) * 100) / 100 },
          'request',
        );
      });
    }
    if (metricsEnabled()) observeRequest(res, route?.service ?? 'gateway', req.method, started);
    if (route === undefined) {
      // Health is never limited: probes and the benchmark call it.
      const health = serviceHealth(url);
      if (health) {
        proxy.forward(request, res, health);
        return;
      }
      // The console's static files are not rate limited: no upstream, and a year in the browser's cache.
      if (GATEWAY_HEALTH.test(url) || CONSOLE_PATH.test(url) || (countingIo && IO_COUNTERS.test(url))) {
        app(req as Request, res as Response);
        return;
      }
    }
    if (!identifying) {
      dispatch(request, res, route);
      return;
    }
    const caller = identifyCaller(req.headers, req.socket.remoteAddress, url);
    request.callerId = caller.id;
    const quota = quotas?.exhausted(caller, req.method, route?.upstreamPath);
    if (limiter) limiter.admit(request, res, caller, quota, route, dispatch);
    else if (quota) quotaExceeded(request, res, quota);
    else dispatch(request, res, route);
  };

  /** After the rate limit: to the service, or to the gateway's own pages. */
  const dispatch = (request: GatewayRequest, res: ServerResponse, route: RouteMatch | undefined): void => {
    if (route) proxy.forward(request, res, route);
    else app(request as unknown as Request, res as Response);
  };

  return {
    handle,
    close: () => {
      proxy.close();
      limiter?.close();
      channel?.close();
    },
  };
}

const isCredential = (callerId: string | undefined): callerId is string =>
  callerId !== undefined && (callerId.startsWith('key:') || callerId.startsWith('user:'));

/** The gateway's own health: `/actuator/health` (aggregated) and `/actuator/health/liveness`. */
const GATEWAY_HEALTH = /^\/actuator\/health(\/liveness)?\/?(\?.*)?$/;

const IO_COUNTERS = /^\/actuator\/io-counters\/?(\?.*)?$/;

const SERVICE_HEALTH = /^\/actuator\/health\/([a-z-]+)\/?(\?.*)?$/;

/** `/actuator/health/<service>`: one service's own health through the proxy path. */
function serviceHealth(url: string): RouteMatch | undefined {
  const match = SERVICE_HEALTH.exec(url);
  const service = match?.[1] as ServiceName | undefined;
  if (!service || !SERVICE_NAMES.includes(service)) return undefined;
  return { service, upstreamPath: '/actuator/health' };
}
