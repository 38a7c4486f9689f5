import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { AppError, classifyAddress, ExchangeError, resolveHost, sendRequest, systemResolver, type RawResponse, type ResolvedAddress } from '@platform/common';
import { CONNECTION_CONFIG, type ConnectionConfig } from '../config/connection.config.js';

export interface OutboundRequest {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body?: Buffer;
  /** Reuse keep-alive sockets of this owner (a connection id): never shared between connections, so never between tenants. */
  pool?: string;
}

/** Keep-alive pools kept at once (one per connection and scheme); the least recently used is closed. */
const MAX_POOLS = 500;

export const OutboundErrors = {
  blocked: (host: string, address: string, range: string) =>
    new AppError('ssrf_blocked', 400, `${host} resolves to ${address}, a ${range} address, which connectors may not reach`),
  timeout: (ms: number) => new AppError('connector_timeout', 504, `no complete answer within ${ms} ms`),
  failed: (message: string) => new AppError('connector_unreachable', 502, message),
};

/**
 * Every call the connection service makes to the outside (operations, connection tests, OAuth
 * token requests, PostgreSQL and SMTP connections) goes through here, under the same SSRF rules as
 * the engine's http.request step (the shared classifier and pinned-address exchange of
 * @platform/common): a host resolving to a private, loopback or metadata address is refused, and
 * sockets connect only to the address that was checked. Redirects are not followed.
 */
@Injectable()
export class Outbound implements OnModuleDestroy {
  private readonly pools = new Map<string, HttpAgent>();

  constructor(@Inject(CONNECTION_CONFIG) private readonly config: ConnectionConfig) {}

  onModuleDestroy(): void {
    for (const agent of this.pools.values()) agent.destroy();
    this.pools.clear();
  }

  get timeoutMs(): number {
    return this.config.CONNECTION_TIMEOUT_MS;
  }

  get limitBytes(): number {
    return this.config.CONNECTION_RESPONSE_LIMIT_BYTES;
  }

  get allowPrivate(): boolean {
    return this.config.CONNECTION_ALLOW_PRIVATE_NETWORKS;
  }

  /** The host's addresses, every one of them allowed; throws `ssrf_blocked` otherwise. */
  async addresses(host: string, signal: AbortSignal): Promise<ResolvedAddress[]> {
    let addresses: ResolvedAddress[];
    try {
      addresses = await resolveHost(host, systemResolver, signal);
    } catch (error) {
      throw OutboundErrors.failed(`${host} could not be resolved (${(error as { code?: string }).code ?? 'error'})`);
    }
    if (!addresses.length) throw OutboundErrors.failed(`${host} has no address`);
    if (!this.allowPrivate) {
      for (const { address } of addresses) {
        const verdict = classifyAddress(address);
        if (!verdict.allowed) throw OutboundErrors.blocked(host, address, verdict.range);
      }
    }
    return addresses;
  }

  /** One exchange under the service's deadline (and the caller's signal). */
  async send(request: OutboundRequest, signal?: AbortSignal): Promise<RawResponse> {
    const deadline = AbortSignal.timeout(this.timeoutMs);
    const combined = signal ? AbortSignal.any([signal, deadline]) : deadline;
    try {
      const addresses = await this.addresses(request.url.hostname, combined);
      return await sendRequest({
        method: request.method,
        url: request.url,
        headers: request.headers,
        body: request.body,
        addresses,
        policy: this.allowPrivate ? undefined : classifyAddress,
        limitBytes: this.config.CONNECTION_RESPONSE_LIMIT_BYTES,
        signal: combined,
        agent: request.pool ? this.agent(`${request.pool}|${request.url.protocol}`, request.url.protocol === 'https:') : undefined,
      });
    } catch (error) {
      if (error instanceof AppError) throw error;
      if (deadline.aborted) throw OutboundErrors.timeout(this.timeoutMs);
      if (error instanceof ExchangeError) {
        if (error.kind === 'blocked_peer') throw new AppError('ssrf_blocked', 400, error.message);
        if (error.kind === 'too_large') throw new AppError('response_too_large', 502, error.message);
        throw OutboundErrors.failed(error.message);
      }
      throw OutboundErrors.failed(`${request.url.host}: ${(error as { code?: string }).code ?? (error as Error).message}`);
    }
  }

  private agent(key: string, https: boolean): HttpAgent {
    let agent = this.pools.get(key);
    if (agent) {
      // Most recently used last: the map's first entry is the one to close when full.
      this.pools.delete(key);
    } else {
      agent = https ? new HttpsAgent({ keepAlive: true, maxSockets: 64 }) : new HttpAgent({ keepAlive: true, maxSockets: 64 });
      if (this.pools.size >= MAX_POOLS) {
        const [oldest, pool] = this.pools.entries().next().value as [string, HttpAgent];
        this.pools.delete(oldest);
        pool.destroy();
      }
    }
    this.pools.set(key, agent);
    return agent;
  }

  /** A fetch for oauth4webapi (`customFetch`), so token requests obey the same rules. */
  readonly fetch = async (
    input: string | URL,
    init: { method?: string; headers?: Headers | Record<string, string> | [string, string][]; body?: unknown; signal?: AbortSignal } = {},
  ): Promise<Response> => {
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, key) => (headers[key] = value));
    const body = init.body === undefined || init.body === null ? undefined : Buffer.from(String(init.body as string));
    const raw = await this.send({ method: init.method ?? 'GET', url: new URL(input), headers, body }, init.signal);
    const responseHeaders = new Headers();
    for (const [key, value] of Object.entries(raw.headers)) {
      if (Array.isArray(value)) value.forEach((v) => responseHeaders.append(key, v));
      else if (value !== undefined) responseHeaders.set(key, value);
    }
    const empty = raw.status === 204 || raw.status === 304 || !raw.body?.length;
    return new Response(empty ? null : new Uint8Array(raw.body!), { status: raw.status, headers: responseHeaders });
  };
}
