import { classifyAddress, resolveHost, systemResolver, type AddressPolicy, type HostResolver } from '@platform/common';
import { checkHttpRequestInput, planHttpRequest, urlProblem, type HttpMethod, type HttpRequestInput, type HttpRequestPlan } from './http/http-request.input.js';
import { bodyExcerpt, decodeBody, plainHeaders, UndecodableBody } from './http/response-body.js';
import { ExchangeError, sendRequest, type RawResponse } from '@platform/common';
import { StepError, type StepContext, type StepDefinition, type StepExecutor, type StepProblem } from './step-executor.js';

export const MAX_REDIRECTS = 5;

/** The output of an http.request step (the OpenAPI shape). */
export interface HttpRequestOutput {
  status: number;
  headers: Record<string, string | string[]>;
  body: unknown;
}

export interface HttpRequestStepOptions {
  /** Name resolution; `dns.lookup(host, { all: true })` unless a test stands in for DNS. */
  resolver?: HostResolver;
  /** Which addresses may be reached when private networks are not allowed; `classifyAddress` by default. */
  addressPolicy?: AddressPolicy;
}

// Credentials that must not follow a redirect to another origin (the Fetch standard's rule).
const ORIGIN_BOUND_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];

/** Raised by the step's own deadline, to tell it from the engine's abort. */
class RequestTimeout extends Error {}

/**
 * Calls an HTTP API. The point of the step is that it cannot be turned against the platform's own
 * network (SSRF): every hop's host is resolved here, every answer is classified, and the socket
 * connects only to a checked address, so neither a redirect nor a DNS rebinding reaches a private,
 * loopback or metadata address unless `allowPrivateNetworks` is set.
 */
export class HttpRequestStep implements StepExecutor {
  readonly type = 'http.request';
  private readonly resolver: HostResolver;
  private readonly addressPolicy: AddressPolicy;

  constructor(options: HttpRequestStepOptions = {}) {
    this.resolver = options.resolver ?? systemResolver;
    this.addressPolicy = options.addressPolicy ?? classifyAddress;
  }

  validate(step: StepDefinition): StepProblem[] {
    return checkHttpRequestInput(step.input, true);
  }

  async execute(input: Record<string, unknown>, _step: StepDefinition, context: StepContext): Promise<HttpRequestOutput> {
    const problems = checkHttpRequestInput(input, false);
    if (problems.length) {
      throw new StepError('invalid_input', problems.map((p) => `${p.path} ${p.message}`).join('; '), false, { problems });
    }
    const plan = planHttpRequest(input as unknown as HttpRequestInput, context.settings.httpDefaultTimeoutMs);

    // One deadline for the whole request, redirects and body included; the engine's signal on top.
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new RequestTimeout()), plan.timeoutMs);
    const onAbort = () => controller.abort(context.signal.reason);
    if (context.signal.aborted) onAbort();
    else context.signal.addEventListener('abort', onAbort, { once: true });
    try {
      return await this.follow(plan, context, controller.signal);
    } catch (error) {
      throw toStepError(error, controller.signal, plan);
    } finally {
      clearTimeout(timer);
      context.signal.removeEventListener('abort', onAbort);
    }
  }

  private async follow(plan: HttpRequestPlan, context: StepContext, signal: AbortSignal): Promise<HttpRequestOutput> {
    let { method, url, body } = plan;
    const headers = { ...plan.headers };
    for (let hop = 0; ; hop++) {
      const response = await this.exchange(method, url, headers, body, context, signal);
      const location = response.body === undefined ? response.headers.location : undefined;
      if (location === undefined) return this.output(response, plan);

      if (hop === MAX_REDIRECTS) {
        throw new StepError('too_many_redirects', `more than ${MAX_REDIRECTS} redirects`, false, { url: withoutQuery(url) });
      }
      const next = redirectTarget(location, url);
      if ((response.status === 303 && method !== 'HEAD') || ((response.status === 301 || response.status === 302) && method === 'POST')) {
        method = 'GET';
        body = undefined;
        delete headers['content-type'];
      }
      if (next.origin !== url.origin) for (const name of ORIGIN_BOUND_HEADERS) delete headers[name];
      url = next;
    }
  }

  /** One hop: resolve, refuse blocked addresses before any connection, send, log one line. */
  private async exchange(
    method: HttpMethod,
    url: URL,
    headers: Record<string, string>,
    body: Buffer | undefined,
    context: StepContext,
    signal: AbortSignal,
  ): Promise<RawResponse> {
    const allowPrivate = context.settings.allowPrivateNetworks;
    const addresses = await resolveHost(url.hostname, this.resolver, signal);
    if (addresses.length === 0) throw Object.assign(new Error(`${url.hostname} has no address`), { code: 'ENOTFOUND' });
    if (!allowPrivate) {
      for (const { address } of addresses) {
        const verdict = this.addressPolicy(address);
        if (!verdict.allowed) {
          context.log('warn', `${method} ${withoutQuery(url)} refused: ${url.hostname} is a ${verdict.range} address`, {
            method,
            url: withoutQuery(url),
            address,
            range: verdict.range,
          });
          throw new StepError('ssrf_blocked', `${url.hostname} resolves to ${address}, a ${verdict.range} address, which http.request may not reach`, false, {
            host: url.hostname,
            address,
            range: verdict.range,
          });
        }
      }
    }

    const started = Date.now();
    try {
      const response = await sendRequest({
        method,
        url,
        headers,
        body,
        addresses,
        policy: allowPrivate ? undefined : this.addressPolicy,
        limitBytes: context.settings.httpResponseLimitBytes,
        signal,
      });
      context.log('info', `${method} ${withoutQuery(url)} ${response.status} ${Date.now() - started}ms`, {
        method,
        url: withoutQuery(url),
        status: response.status,
        duration_ms: Date.now() - started,
      });
      return response;
    } catch (error) {
      context.log('warn', `${method} ${withoutQuery(url)} failed after ${Date.now() - started}ms: ${describe(error, signal)}`, {
        method,
        url: withoutQuery(url),
        duration_ms: Date.now() - started,
      });
      throw error;
    }
  }

  private output(response: RawResponse, plan: HttpRequestPlan): HttpRequestOutput {
    const raw = response.body ?? Buffer.alloc(0);
    const { status } = response;
    if (plan.failOnStatus && status >= 400) {
      const details: Record<string, unknown> = { status, body: bodyExcerpt(raw, response.headers) };
      const retryAfter = response.headers['retry-after'];
      if (retryAfter) details.retry_after = retryAfter;
      if (status >= 500) throw new StepError('http_5xx', `the server answered ${status}`, true, details);
      throw new StepError('http_4xx', `the server answered ${status}`, status === 429, details);
    }
    let body: unknown;
    try {
      // No body at all (HEAD, 204, 304) is null; an empty body is decoded like any other.
      body = plan.method === 'HEAD' || status === 204 || status === 304 ? null : decodeBody(raw, response.headers, plan.responseType);
    } catch (error) {
      if (error instanceof UndecodableBody) throw new StepError('invalid_response', error.message, false, { status, body: bodyExcerpt(raw, response.headers) });
      throw error;
    }
    return { status, headers: plainHeaders(response.headers), body };
  }
}

function redirectTarget(location: string, base: URL): URL {
  let next: URL;
  try {
    next = new URL(location, base);
  } catch {
    throw new StepError('invalid_redirect', 'the redirect location is not a valid URL', false, { location: location.slice(0, 200) });
  }
  const problem = urlProblem(next.href);
  if (problem) throw new StepError('invalid_redirect', `the redirect location ${problem}`, false, { location: withoutQuery(next) });
  return next;
}

/** The URL as logged and reported: no query string, fragment or credentials. */
function withoutQuery(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname}`;
}

function describe(error: unknown, signal: AbortSignal): string {
  if (signal.aborted) return signal.reason instanceof RequestTimeout ? 'timeout' : 'aborted';
  if (error instanceof ExchangeError) return error.kind;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : 'error';
}

const TLS_CODES = /^(ERR_TLS_|CERT_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT|ERR_SSL_)/;

function toStepError(error: unknown, signal: AbortSignal, plan: HttpRequestPlan): StepError {
  if (error instanceof StepError) return error;
  if (signal.aborted) {
    const reason: unknown = signal.reason;
    if (reason instanceof RequestTimeout)
      return new StepError('timeout', `no complete response within ${plan.timeoutMs} ms`, true, { timeout_ms: plan.timeoutMs });
    if (reason instanceof StepError) return reason;
    return new StepError('aborted', 'the request was aborted', false);
  }
  if (error instanceof ExchangeError) {
    if (error.kind === 'too_large') return new StepError('response_too_large', error.message, false, error.details);
    if (error.kind === 'blocked_peer') return new StepError('ssrf_blocked', error.message, false, error.details);
    return new StepError('invalid_response', error.message, false, error.details);
  }
  const raw = (error as { code?: unknown }).code;
  const code = typeof raw === 'string' ? raw : '';
  const message = (error as Error).message ?? String(error);
  if (TLS_CODES.test(code)) return new StepError('tls_error', `TLS: ${message}`, false, { cause: code });
  return new StepError('network_error', message, true, code ? { cause: code } : undefined);
}
