import { Injectable } from '@nestjs/common';
import type { IncomingHttpHeaders } from 'node:http';
import { AppError } from '@platform/common';
import type { ConnectorHttp } from '@platform/messaging';
import type { Credentials, ConnectionRow } from '../connections/connection.record.js';
import { DEFAULT_RETRYABLE_STATUSES, type OperationCall, type OperationResult } from './operation.types.js';
import { Outbound, type OutboundRequest } from '../outbound/outbound.js';
import { formEncode, render, renderPath, scalarText, type TemplateScope } from './templates.js';

const MAX_MESSAGE = 500;

/** A declarative HTTP operation: the definition's request template, the connection's auth, one exchange. */
@Injectable()
export class HttpOperation {
  constructor(private readonly outbound: Outbound) {}

  async run(call: OperationCall): Promise<OperationResult> {
    const request = buildRequest(call);
    const raw = await this.outbound.send(request, call.signal);
    const output = parseBody(raw.body, raw.headers);
    const { operation } = call;
    const success = operation.success_field ? (output as Record<string, unknown> | null)?.[operation.success_field] !== false : true;
    const ok = raw.status >= 200 && raw.status < 300 && success;
    const result: OperationResult = { status: raw.status, output, ok };
    if (!ok) {
      result.message = errorMessage(output, operation.error_field, raw.status);
      result.retryable = (operation.retryable_statuses ?? DEFAULT_RETRYABLE_STATUSES).includes(raw.status);
      const retryAfter = retryAfterMs(raw.headers['retry-after']);
      if (retryAfter !== undefined) result.retryAfterMs = retryAfter;
    }
    return result;
  }
}

export function buildRequest(call: OperationCall): OutboundRequest {
  const { definition, operation, connection, credentials, input } = call;
  const http = operation.http as ConnectorHttp;
  const scope: TemplateScope = { input, settings: connection.settings };
  const base = (connection.settings.base_url as string | undefined) ?? definition.base_url;
  if (!base) throw new AppError('connection_misconfigured', 400, 'The connection has no base_url');
  const rendered = render(http.method, scope);
  const method = (typeof rendered === 'string' && rendered ? rendered : 'GET').toUpperCase();
  if (!/^(GET|POST|PUT|PATCH|DELETE|HEAD)$/.test(method)) throw new AppError('invalid_input', 400, `${method.slice(0, 20)} is not an HTTP method`);
  const path = renderPath(http.path, scope);
  if (!path.startsWith('/')) throw new AppError('invalid_input', 400, 'The operation path must start with /');
  const baseUrl = new URL(base);
  const url = new URL(`${base.replace(/\/+$/, '')}${path}`);
  // `..` segments are resolved by the URL parser: the result must still be under the base.
  if (url.origin !== baseUrl.origin || !url.pathname.startsWith(baseUrl.pathname.replace(/\/+$/, ''))) {
    throw new AppError('invalid_input', 400, 'The operation path leaves the base URL');
  }

  for (const [key, value] of Object.entries(asRecord(render(http.query, scope)))) {
    if (value === undefined || value === null) continue;
    url.searchParams.set(key, scalarText(value));
  }
  const headers: Record<string, string> = { accept: 'application/json', 'user-agent': 'platform-connector/1.0' };
  for (const [key, value] of Object.entries(asRecord(render(http.headers, scope)))) {
    if (value !== undefined && value !== null) headers[key.toLowerCase()] = scalarText(value);
  }
  let body: Buffer | undefined;
  const payload = http.body === undefined ? undefined : render(http.body, scope);
  if (payload !== undefined && method !== 'GET' && method !== 'HEAD') {
    if (http.body_type === 'form') {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = Buffer.from(formEncode(asRecord(payload)));
    } else {
      headers['content-type'] = 'application/json';
      body = Buffer.from(JSON.stringify(payload));
    }
  }
  if (operation.idempotency_header && call.idempotencyKey) headers[operation.idempotency_header.toLowerCase()] = call.idempotencyKey;
  applyAuth(connection, credentials, headers, url, definition.auth.find((a) => a.type === connection.auth_type)?.prefix);
  return { method, url, headers, body, pool: connection.id };
}

/** Puts the connection's credentials on the request; the only place they meet the wire. */
function applyAuth(connection: ConnectionRow, credentials: Credentials, headers: Record<string, string>, url: URL, schemePrefix: string | undefined): void {
  const settings = connection.auth_settings;
  switch (connection.auth_type) {
    case 'none':
      return;
    case 'api_key': {
      const name = settings.name ?? 'X-API-Key';
      const value = `${settings.prefix ?? ''}${credentials.key ?? ''}`;
      if (settings.in === 'query') url.searchParams.set(name, value);
      else headers[name.toLowerCase()] = value;
      return;
    }
    case 'basic':
      headers.authorization = `Basic ${Buffer.from(`${credentials.username ?? ''}:${credentials.password ?? ''}`).toString('base64')}`;
      return;
    case 'bearer':
      headers.authorization = `${settings.prefix ?? schemePrefix ?? 'Bearer '}${credentials.token ?? ''}`;
      return;
    case 'oauth2_code':
    case 'oauth2_client_credentials':
      headers.authorization = `Bearer ${credentials.access_token ?? ''}`;
      return;
  }
}

function asRecord(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function parseBody(body: Buffer | undefined, headers: IncomingHttpHeaders): unknown {
  if (!body || body.length === 0) return null;
  const text = body.toString('utf8');
  const type = (headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (type === 'application/json' || type.endsWith('+json') || type === 'text/json') {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

function errorMessage(output: unknown, field: string | undefined, status: number): string {
  const o = output as Record<string, unknown> | null;
  const candidates = [field ? o?.[field] : undefined, o?.message, (o?.error as Record<string, unknown> | undefined)?.message, o?.error, o?.error_description];
  const found = candidates.find((c) => typeof c === 'string' && c.length > 0) as string | undefined;
  const text = found ?? (typeof output === 'string' && output ? output : `the remote side answered ${status}`);
  return text.slice(0, MAX_MESSAGE);
}

/** `Retry-After` as seconds or an HTTP date, in milliseconds (never negative). */
export function retryAfterMs(header: string | string[] | undefined): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}
