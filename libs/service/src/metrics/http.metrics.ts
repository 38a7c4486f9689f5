import type { NextFunction, Request, Response } from 'express';
import { SeriesCache, histogram, methodLabel } from '@platform/common';

const requestSeconds = histogram({
  name: 'http_request_duration_seconds',
  help: "Requests this service answered, by route template (Express's, e.g. /v1/executions/:id; `unmatched` for a path no route has), method and status; its _count is the request counter",
  labelNames: ['route', 'method', 'status'] as const,
});

const series = new SeriesCache(([route, method, status]) => requestSeconds.labels(route, method, status));

/** The route's template once Express has matched it; never the raw path, which carries ids. */
export function routeTemplate(req: Pick<Request, 'route' | 'baseUrl'>): string {
  const path = (req.route as { path?: unknown } | undefined)?.path;
  return typeof path === 'string' ? `${req.baseUrl ?? ''}${path}` : 'unmatched';
}

/** Express middleware: one observation per answered request, labelled when the answer is done. */
export function httpMetricsMiddleware(req: Request, res: Response, next: NextFunction): void {
  const started = performance.now();
  res.once('finish', () => {
    series.get(routeTemplate(req), methodLabel(req.method), String(res.statusCode)).observe((performance.now() - started) / 1000);
  });
  next();
}
