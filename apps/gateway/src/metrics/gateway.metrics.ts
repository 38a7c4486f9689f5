import type { ServerResponse } from 'node:http';
import { SeriesCache, histogram, methodLabel } from '@platform/common';

const requestSeconds = histogram({
  name: 'gateway_request_duration_seconds',
  help: "Requests the gateway answered, by upstream (the service its path prefix routes to, or `gateway` for its own pages, health and 404s), method and status; from the request's arrival to the answer's last byte, rate limiting included",
  labelNames: ['upstream', 'method', 'status'] as const,
});

const series = new SeriesCache(([upstream, method, status]) => requestSeconds.labels(upstream, method, status));

/** Observes the request once its answer is sent. */
export function observeRequest(res: ServerResponse, upstream: string, method: string | undefined, started: number): void {
  res.once('finish', () => series.get(upstream, methodLabel(method), String(res.statusCode)).observe((performance.now() - started) / 1000));
}
