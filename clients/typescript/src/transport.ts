import { PlatformApiError, PlatformConnectionError, type ErrorDetail } from './errors.js';

/** What every call of the SDK accepts. */
export interface CallOptions {
  /** Aborts the call, its retries and the waits between them. */
  signal?: AbortSignal;
  /** Sent as `X-Request-Id` (1–128 of `A-Z a-z 0-9 . _ -`): the platform keeps it in every log line. */
  requestId?: string;
  /** More headers for this call. */
  headers?: Record<string, string>;
}

/** How 429 and 503 answers (and, for requests safe to repeat, lost connections) are retried. */
export interface RetryPolicy {
  /** Retries after the first attempt; 0 turns retrying off. Default 4. */
  maxRetries?: number;
  /** The most time spent waiting between attempts of one call, in ms; a longer `Retry-After` is not waited for. Default 30,000. */
  budgetMs?: number;
  /** The first wait when the answer names none, doubled on each retry. Default 250 ms. */
  baseDelayMs?: number;
}

/** Seen after every answer, retries included: for logging request ids and timings. */
export interface ResponseInfo {
  method: string;
  path: string;
  status: number;
  requestId: string | undefined;
  attempt: number;
  ms: number;
}

/** What the SDK reads of an answer: global `fetch`'s `Response` is one. */
export interface ResponseLike {
  ok: boolean;
  status: number;
  statusText: string;
  headers: { get(name: string): string | null };
  text(): Promise<string>;
}

/**
 * How the SDK sends a request: global `fetch` by default; `nodeHttp` from
 * `@platform-sdk/client/node-http` on Node.js when start-up time counts (a command line).
 */
export type FetchLike = (url: URL, init: { method: string; headers: Record<string, string>; body?: string; signal?: AbortSignal }) => Promise<ResponseLike>;

export interface TransportOptions {
  baseUrl: string;
  headers: Record<string, string>;
  retry?: RetryPolicy;
  /** Per-attempt time limit in ms (none by default). */
  timeoutMs?: number;
  fetch?: FetchLike;
  onResponse?: (info: ResponseInfo) => void;
}

export interface RequestOptions extends CallOptions {
  query?: Record<string, string | number | boolean | undefined | null>;
  body?: unknown;
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

const RETRIED_STATUSES = new Set([429, 503]);

/** Seconds (or an HTTP date) of a `Retry-After` header, as ms; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason as Error);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

async function errorOf(res: ResponseLike, method: string, path: string): Promise<PlatformApiError> {
  const text = await res.text().catch(() => '');
  let body: { message?: unknown; code?: unknown; request_id?: unknown; details?: unknown } = {};
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    // Not the platform's error shape (a proxy in between): keep the text as the message.
  }
  const retryAfter = retryAfterMs(res.headers.get('retry-after'));
  return new PlatformApiError({
    status: res.status,
    code: typeof body.code === 'string' ? body.code : `http_${res.status}`,
    message: typeof body.message === 'string' ? body.message : text.slice(0, 500) || res.statusText || `HTTP ${res.status}`,
    requestId: typeof body.request_id === 'string' ? body.request_id : (res.headers.get('x-request-id') ?? undefined),
    details: Array.isArray(body.details) ? (body.details as ErrorDetail[]) : undefined,
    retryAfter: retryAfter === undefined ? undefined : retryAfter / 1000,
    method,
    path,
  });
}

/**
 * The one place the SDK talks HTTP: JSON in and out, the credentials, request ids, retries of
 * 429 and 503 after `Retry-After` plus jitter within a budget, and typed errors.
 */
export class Transport {
  private readonly retry: Required<RetryPolicy>;
  private readonly fetchImpl: FetchLike;

  constructor(private readonly options: TransportOptions) {
    this.retry = { maxRetries: 4, budgetMs: 30_000, baseDelayMs: 250, ...options.retry };
    // Global fetch is looked up when first used: Node.js loads its implementation only then.
    this.fetchImpl = options.fetch ?? ((url, init) => globalThis.fetch(url, init));
  }

  url(path: string, query?: RequestOptions['query']): URL {
    const url = new URL(path.replace(/^\//, ''), this.options.baseUrl.endsWith('/') ? this.options.baseUrl : `${this.options.baseUrl}/`);
    for (const [key, value] of Object.entries(query ?? {})) {
      if (value !== undefined && value !== null) url.searchParams.set(key, String(value));
    }
    return url;
  }

  /** The per-attempt time limit (`timeoutMs`), if any: a request the platform holds must end before it. */
  get attemptTimeoutMs(): number | undefined {
    return this.options.timeoutMs;
  }

  async request<T>(method: Method, path: string, options: RequestOptions = {}): Promise<T> {
    return (await this.exchange<T>(method, path, options)).body;
  }

  /** The answer's body with its status and headers, for the calls that read them (`Preference-Applied`, 200 or 202). */
  async exchange<T>(method: Method, path: string, options: RequestOptions = {}): Promise<{ status: number; body: T; headers: ResponseLike['headers'] }> {
    const res = await this.send(method, path, options);
    if (res.status === 204) return { status: res.status, body: undefined as T, headers: res.headers };
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T, headers: res.headers };
  }

  private async send(method: Method, path: string, options: RequestOptions): Promise<ResponseLike> {
    const headers: Record<string, string> = { accept: 'application/json', ...this.options.headers, ...options.headers };
    if (options.requestId) headers['x-request-id'] = options.requestId;
    let body: string | undefined;
    if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.body);
    }
    const url = this.url(path, options.query);
    // A lost connection is retried only when repeating the request cannot do the work twice.
    const repeatable = method !== 'POST' || Object.keys(headers).some((h) => h.toLowerCase() === 'idempotency-key');
    let waited = 0;
    for (let attempt = 1; ; attempt += 1) {
      const started = performance.now();
      const signals = [options.signal, this.options.timeoutMs ? AbortSignal.timeout(this.options.timeoutMs) : undefined].filter(
        (s): s is AbortSignal => s !== undefined,
      );
      let res: ResponseLike;
      try {
        res = await this.fetchImpl(url, { method, headers, body, signal: signals.length > 1 ? AbortSignal.any(signals) : signals[0] });
      } catch (error) {
        if (options.signal?.aborted) throw options.signal.reason as Error;
        const delay = this.nextDelay(attempt, undefined, waited);
        if (!repeatable || delay === undefined) {
          throw new PlatformConnectionError(`${method} ${url.href} failed: ${(error as Error).message}`, method, path, { cause: error });
        }
        waited += delay;
        await sleep(delay, options.signal);
        continue;
      }
      this.options.onResponse?.({
        method,
        path,
        status: res.status,
        requestId: res.headers.get('x-request-id') ?? undefined,
        attempt,
        ms: performance.now() - started,
      });
      if (res.ok) return res;
      if (RETRIED_STATUSES.has(res.status)) {
        const delay = this.nextDelay(attempt, retryAfterMs(res.headers.get('retry-after')), waited);
        if (delay !== undefined) {
          await res.text().catch(() => '');
          waited += delay;
          await sleep(delay, options.signal);
          continue;
        }
      }
      throw await errorOf(res, method, path);
    }
  }

  /** The wait before the next attempt, or undefined when retries or the budget are used up. */
  private nextDelay(attempt: number, asked: number | undefined, waited: number): number | undefined {
    if (attempt > this.retry.maxRetries) return undefined;
    const base = asked ?? this.retry.baseDelayMs * 2 ** (attempt - 1);
    // Never sooner than asked; up to a quarter later, so clients told the same wait spread out.
    const delay = base + Math.random() * Math.max(base * 0.25, 10);
    return waited + delay > this.retry.budgetMs ? undefined : Math.round(delay);
  }
}
