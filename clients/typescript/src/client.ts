import createOpenApiClient, { type Client } from 'openapi-fetch';
import { Paginated, type ListOptions, type Page } from './pagination.js';
import { Keys } from './resources/keys.js';
import { Executions, Runs } from './resources/runs.js';
import { Triggers } from './resources/triggers.js';
import { Webhooks } from './resources/webhooks.js';
import { Workflows } from './resources/workflows.js';
import type { paths } from './schema.js';
import { Transport, type CallOptions, type FetchLike, type ResponseInfo, type RetryPolicy } from './transport.js';
import type { Me, QueryResult } from './types.js';

export interface ClientOptions {
  /** The gateway, e.g. `https://automations.example.com` or `http://127.0.0.1:8080`. */
  baseUrl: string;
  /** An API key (`sv_live_…`, `sv_test_…`), sent as `X-API-Key`. */
  apiKey?: string;
  /** A bearer token (a user's JWT), sent as `Authorization: Bearer`; it needs `tenant`. */
  token?: string;
  /** The tenant a bearer token acts for (`X-SELECTED-TENANT`). */
  tenant?: string;
  retry?: RetryPolicy;
  /** Per-attempt time limit in ms (none by default). */
  timeoutMs?: number;
  /** Headers sent with every request (`User-Agent`, `X-Scope-Key`, …). */
  headers?: Record<string, string>;
  /** Seen after every answer: request ids and timings for logs. */
  onResponse?: (info: ResponseInfo) => void;
  /** Sends the requests of the resources below (default: global fetch; `client.api` always uses global fetch). */
  fetch?: FetchLike;
}

function credentials(options: ClientOptions): Record<string, string> {
  if (options.apiKey && options.token) throw new TypeError('give apiKey or token, not both');
  if (options.apiKey) return { 'x-api-key': options.apiKey };
  if (options.token) {
    if (!options.tenant) throw new TypeError('a bearer token needs tenant (the X-SELECTED-TENANT it acts for)');
    return { authorization: `Bearer ${options.token}`, 'x-selected-tenant': options.tenant };
  }
  throw new TypeError('give apiKey or token');
}

/**
 * The platform's API for programs. Every call takes `{ signal, requestId, headers }`, retries
 * 429 and 503 after `Retry-After`, and throws `PlatformApiError` for any other failure.
 */
export class PlatformClient {
  readonly workflows: Workflows;
  readonly executions: Executions;
  readonly runs: Runs;
  readonly keys: Keys;
  readonly triggers: Triggers;
  readonly webhooks: Webhooks;
  private readonly http: Transport;
  private readonly headers: Record<string, string>;
  private readonly baseUrl: string;
  private typedApi?: Client<paths>;

  constructor(options: ClientOptions) {
    const headers = { ...options.headers, ...credentials(options) };
    this.http = new Transport({
      baseUrl: options.baseUrl,
      headers,
      retry: options.retry,
      timeoutMs: options.timeoutMs,
      fetch: options.fetch,
      onResponse: options.onResponse,
    });
    this.workflows = new Workflows(this.http);
    this.executions = new Executions(this.http);
    this.runs = new Runs(this.http, this.executions);
    this.keys = new Keys(this.http);
    this.triggers = new Triggers(this.http);
    this.webhooks = new Webhooks(this.http);
    this.headers = headers;
    this.baseUrl = options.baseUrl.replace(/\/$/, '');
  }

  /**
   * Every route of the platform, typed from its OpenAPI description (openapi-fetch), for what
   * the resources above do not cover. Made on first use: it needs global fetch, which Node.js
   * loads only then.
   */
  get api(): Client<paths> {
    return (this.typedApi ??= createOpenApiClient<paths>({ baseUrl: this.baseUrl, headers: this.headers }));
  }

  /** Who the credential is: tenant, data plane (`environment_id`), scopes. */
  me(options: CallOptions = {}): Promise<Me> {
    return this.http.request('GET', '/account/me', options);
  }

  /**
   * Any list of the platform, every page: `client.list<File>('/storage/files', { content_type: 'application/pdf' })`.
   * The resources above wrap the lists they cover; this follows `next_cursor` on the others.
   */
  list<T = Record<string, unknown>>(
    path: string,
    filters: Record<string, string | number | boolean | undefined> = {},
    options: ListOptions = {},
  ): Paginated<T> {
    return new Paginated((page, call) => this.http.request<Page<T>>('GET', path, { ...call, query: { ...filters, ...page } }), options);
  }

  /** One SQL `SELECT` over the data tables and the platform views (`POST /v1/data/query`). */
  query(sql: string, params: unknown[] = [], options: CallOptions = {}): Promise<QueryResult> {
    return this.http.request('POST', '/v1/data/query', { ...options, body: params.length ? { query: sql, params } : { query: sql } });
  }
}

export function createClient(options: ClientOptions): PlatformClient {
  return new PlatformClient(options);
}
