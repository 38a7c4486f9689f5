import { SERVICE_NAMES, SERVICES, type HttpMethod, type ServiceName } from '@platform/common';
import type { GatewayConfig } from '../config/gateway.config.js';
import type { RouteMatch } from '../routing/route-table.js';

interface LongRouteTimeout {
  service: ServiceName;
  method: HttpMethod;
  path: RegExp;
  timeoutMs: number;
}

/**
 * How long the gateway waits for each answer: UPSTREAM_TIMEOUT_MS, except on the catalogue's long
 * routes, where it waits for the service's own limits plus UPSTREAM_TIMEOUT_MARGIN_MS (never less
 * than UPSTREAM_TIMEOUT_MS). Without this a service's documented timeout answer could never reach
 * a client: the gateway's shorter one would always come first.
 */
export class RouteTimeouts {
  private readonly long: LongRouteTimeout[];

  constructor(private readonly config: GatewayConfig) {
    this.long = SERVICE_NAMES.flatMap((service) =>
      (SERVICES[service].longRoutes ?? []).map((route) => ({
        service,
        method: route.method,
        path: route.path,
        timeoutMs: Math.max(config.UPSTREAM_TIMEOUT_MS, route.bounds.reduce((sum, bound) => sum + config[bound], 0) + config.UPSTREAM_TIMEOUT_MARGIN_MS),
      })),
    );
  }

  of(method: string | undefined, route: RouteMatch): number {
    const queryAt = route.upstreamPath.indexOf('?');
    const path = queryAt === -1 ? route.upstreamPath : route.upstreamPath.slice(0, queryAt);
    const long = this.long.find((r) => r.service === route.service && r.method === method && r.path.test(path));
    return long?.timeoutMs ?? this.config.UPSTREAM_TIMEOUT_MS;
  }
}
