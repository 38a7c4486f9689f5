import { expressionOf } from '../../expressions.js';
import type { StepProblem } from '../step-executor.js';

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export const RESPONSE_TYPES = ['auto', 'json', 'text', 'base64'] as const;
export type ResponseType = (typeof RESPONSE_TYPES)[number];

export const MAX_TIMEOUT_MS = 120_000;

/** The input of an http.request step once its expressions are evaluated (the OpenAPI shape). */
export interface HttpRequestInput {
  method?: HttpMethod;
  url: string;
  headers?: Record<string, string>;
  query?: Record<string, string | number | boolean>;
  body?: unknown;
  timeout_ms?: number;
  response_type?: ResponseType;
  fail_on_status?: boolean;
}

/** The request to send, normalised: method upper-cased, query merged into the URL, defaults applied. */
export interface HttpRequestPlan {
  method: HttpMethod;
  url: URL;
  headers: Record<string, string>;
  body: Buffer | undefined;
  timeoutMs: number;
  responseType: ResponseType;
  failOnStatus: boolean;
}

const FIELDS = new Set(['method', 'url', 'headers', 'query', 'body', 'timeout_ms', 'response_type', 'fail_on_status']);
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
// Set by the step from the body and the connection it opens; a caller's value could only desynchronise them.
const RESERVED_HEADERS = new Set(['host', 'content-length', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade', 'te', 'trailer', 'expect']);

/**
 * Every problem of an http.request input. At save time (`literalOnly`) values that are expressions
 * are skipped: only what is already known can be wrong. At run time nothing is skipped.
 */
export function checkHttpRequestInput(input: unknown, literalOnly: boolean): StepProblem[] {
  const problems: StepProblem[] = [];
  const problem = (path: string, message: string) => problems.push({ path: `input${path}`, message });
  const skip = (value: unknown) => literalOnly && expressionOf(value) !== undefined;

  if (input === undefined || input === null) {
    problem('.url', 'is required');
    return problems;
  }
  if (skip(input)) return problems;
  if (typeof input !== 'object' || Array.isArray(input)) {
    problem('', 'must be an object');
    return problems;
  }
  const fields = input as Record<string, unknown>;
  for (const key of Object.keys(fields)) if (!FIELDS.has(key)) problem(`.${key}`, `is not a field of http.request (fields: ${[...FIELDS].join(', ')})`);

  const { method, url, headers, query, timeout_ms, response_type, fail_on_status } = fields;
  if (url === undefined || url === null || url === '') problem('.url', 'is required');
  else if (!skip(url)) {
    const message = urlProblem(url);
    if (message) problem('.url', message);
  }

  if (method !== undefined && !skip(method)) {
    if (typeof method !== 'string' || !(HTTP_METHODS as readonly string[]).includes(method.toUpperCase())) {
      problem('.method', `must be one of ${HTTP_METHODS.join(', ')}`);
    }
  }

  if (headers !== undefined && !skip(headers)) {
    if (!isPlainObject(headers)) problem('.headers', 'must be an object of header names to string values');
    else {
      for (const [name, value] of Object.entries(headers)) {
        const path = `.headers.${name}`;
        // An expression that found nothing gives undefined: the header is left out.
        if (value === undefined) continue;
        if (!TOKEN.test(name)) problem(path, 'is not a valid header name');
        else if (RESERVED_HEADERS.has(name.toLowerCase())) problem(path, 'is set by the step and cannot be given');
        if (skip(value)) continue;
        if (typeof value !== 'string') problem(path, 'must be a string');
        else if (/[\r\n\0]/.test(value)) problem(path, 'must not contain line breaks or NUL');
      }
    }
  }

  if (query !== undefined && !skip(query)) {
    if (!isPlainObject(query)) problem('.query', 'must be an object of parameter names to string, number or boolean values');
    else {
      for (const [name, value] of Object.entries(query)) {
        if (value === undefined || skip(value)) continue;
        const type = typeof value;
        if (type !== 'string' && type !== 'number' && type !== 'boolean') problem(`.query.${name}`, 'must be a string, number or boolean');
        else if (type === 'number' && !Number.isFinite(value)) problem(`.query.${name}`, 'must be a finite number');
      }
    }
  }

  if (timeout_ms !== undefined && !skip(timeout_ms)) {
    if (typeof timeout_ms !== 'number' || !Number.isInteger(timeout_ms) || timeout_ms < 1 || timeout_ms > MAX_TIMEOUT_MS) {
      problem('.timeout_ms', `must be an integer from 1 to ${MAX_TIMEOUT_MS}`);
    }
  }

  if (response_type !== undefined && !skip(response_type)) {
    if (typeof response_type !== 'string' || !(RESPONSE_TYPES as readonly string[]).includes(response_type)) {
      problem('.response_type', `must be one of ${RESPONSE_TYPES.join(', ')}`);
    }
  }

  if (fail_on_status !== undefined && !skip(fail_on_status) && typeof fail_on_status !== 'boolean') {
    problem('.fail_on_status', 'must be a boolean');
  }
  return problems;
}

/** Why a URL may not be requested, or undefined when it may (the address is checked later, at run time). */
export function urlProblem(value: unknown): string | undefined {
  if (typeof value !== 'string') return 'must be a string';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'is not a valid absolute URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must use http or https';
  if (url.username || url.password) return 'must not contain credentials: send them in a header (e.g. authorization)';
  if (!url.hostname) return 'must have a host';
  return undefined;
}

/** Turns an evaluated input into the request to send; call only after `checkHttpRequestInput(input, false)` found nothing. */
export function planHttpRequest(input: HttpRequestInput, defaultTimeoutMs: number): HttpRequestPlan {
  const url = new URL(input.url);
  for (const [name, value] of Object.entries(input.query ?? {})) if (value !== undefined) url.searchParams.append(name, String(value));

  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(input.headers ?? {})) if (value !== undefined) headers[name.toLowerCase()] = value;

  let body: Buffer | undefined;
  if (input.body !== undefined && input.body !== null) {
    if (typeof input.body === 'string') {
      body = Buffer.from(input.body, 'utf8');
      headers['content-type'] ??= 'text/plain; charset=utf-8';
    } else {
      body = Buffer.from(JSON.stringify(input.body), 'utf8');
      headers['content-type'] ??= 'application/json';
    }
  }
  headers['accept'] ??= 'application/json, text/plain;q=0.9, */*;q=0.8';
  headers['accept-encoding'] ??= 'gzip, deflate, br';
  headers['user-agent'] ??= 'platform-run/http.request';

  return {
    method: (input.method?.toUpperCase() ?? 'GET') as HttpMethod,
    url,
    headers,
    body,
    timeoutMs: Math.min(input.timeout_ms ?? defaultTimeoutMs, MAX_TIMEOUT_MS),
    responseType: input.response_type ?? 'auto',
    failOnStatus: input.fail_on_status ?? true,
  };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
