import { SERVICE_NAMES, SERVICES, type ServiceName } from '@platform/common';

export interface RouteMatch {
  service: ServiceName;
  /** Path and query to send upstream. */
  upstreamPath: string;
}

/** `/api/v1/workflow/<short path>` is accepted for every short path (API-CONTRACT). */
const LONG_FORM = '/api/v1/workflow';

interface Entry {
  prefix: string;
  service: ServiceName;
}

/**
 * Maps a public path to its service by longest prefix, on segment boundaries (`/runs` is not
 * `/run`). Prefixes come from the service catalogue, so a new service needs no gateway change.
 */
export class RouteTable {
  private readonly entries: Entry[];

  constructor() {
    this.entries = SERVICE_NAMES.flatMap((service) => SERVICES[service].prefixes.map((prefix) => ({ prefix, service })));
    this.entries.sort((a, b) => b.prefix.length - a.prefix.length);
  }

  match(url: string): RouteMatch | undefined {
    const queryAt = url.indexOf('?');
    const path = queryAt === -1 ? url : url.slice(0, queryAt);
    const query = queryAt === -1 ? '' : url.slice(queryAt);
    const direct = this.find(path);
    if (direct) return { service: direct.service, upstreamPath: url };
    if (startsWithSegment(path, LONG_FORM)) {
      const short = path.slice(LONG_FORM.length) || '/';
      const entry = this.find(short);
      if (entry) return { service: entry.service, upstreamPath: short + query };
    }
    return undefined;
  }

  private find(path: string): Entry | undefined {
    return this.entries.find((e) => startsWithSegment(path, e.prefix));
  }
}

const SLASH = 0x2f;

function startsWithSegment(path: string, prefix: string): boolean {
  return path === prefix || (path.startsWith(prefix) && path.charCodeAt(prefix.length) === SLASH);
}
