import type { LookupAddress, LookupOptions } from 'node:dns';
import { request as httpRequest, type Agent, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction, Socket } from 'node:net';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { AddressPolicy, ResolvedAddress } from './address-policy.js';
import { clientHttpSpan } from '../telemetry/tracing.js';

export interface Exchange {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body: Buffer | undefined;
  /** Addresses already resolved and checked: the connection goes to one of these and nowhere else. */
  addresses: ResolvedAddress[];
  /** Checked again against the socket's peer once connected; undefined when private networks are allowed. */
  policy: AddressPolicy | undefined;
  limitBytes: number;
  signal: AbortSignal;
  /**
   * Keep-alive sockets of one owner (a connector's connection), or none: by default every
   * exchange has a fresh connection. A pooled socket was checked when it connected, and is reused
   * only by requests of the same owner.
   */
  agent?: Agent;
}

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** Undefined for a redirect, whose body is never read. */
  body: Buffer | undefined;
}

/** Failures the step turns into StepErrors; anything else thrown from here is a network error. */
export class ExchangeError extends Error {
  constructor(
    readonly kind: 'too_large' | 'blocked_peer' | 'bad_encoding',
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * One HTTP exchange over node:http(s), connected only to pre-checked addresses: the `lookup`
 * hook answers with the addresses the step resolved and classified, so the socket cannot end up
 * on a second, different DNS answer (rebinding). Redirects are returned, not followed.
 */
export function sendRequest(exchange: Exchange): Promise<RawResponse> {
  return clientHttpSpan(exchange.method, exchange.url, exchange.headers, (headers) => send({ ...exchange, headers }));
}

function send(exchange: Exchange): Promise<RawResponse> {
  const { url, signal } = exchange;
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;

  return new Promise<RawResponse>((resolve, reject) => {
    const req = request(url, {
      method: exchange.method,
      headers: exchange.body ? { ...exchange.headers, 'content-length': String(exchange.body.length) } : exchange.headers,
      lookup: pinnedLookup(exchange.addresses),
      // A fresh connection per exchange unless the caller owns a pool: no socket (or its peer) is shared across tenants or hops.
      agent: exchange.agent ?? false,
      signal,
    });

    req.once('socket', (socket: Socket) => {
      // A pooled socket that is already open was checked when it connected.
      if (!exchange.policy || !socket.connecting) return;
      const policy = exchange.policy;
      socket.once('connect', () => {
        const peer = socket.remoteAddress ?? '';
        const verdict = policy(peer);
        if (!verdict.allowed)
          req.destroy(new ExchangeError('blocked_peer', `connected peer ${peer} is a ${verdict.range} address`, { address: peer, range: verdict.range }));
      });
    });

    // `on`, not `once`: a late second error (after a destroy) must not become an uncaught one.
    req.on('error', reject);
    req.once('response', (res: IncomingMessage) => {
      const status = res.statusCode ?? 0;
      if (REDIRECTS.has(status) && res.headers.location) {
        res.destroy();
        resolve({ status, headers: res.headers, body: undefined });
        return;
      }
      readBody(res, exchange).then((body) => resolve({ status, headers: res.headers, body }), reject);
    });
    req.end(exchange.body);
  });
}

async function readBody(res: IncomingMessage, exchange: Exchange): Promise<Buffer> {
  const status = res.statusCode ?? 0;
  if (exchange.method === 'HEAD' || status === 204 || status === 304) {
    res.destroy();
    return Buffer.alloc(0);
  }
  const limit = exchange.limitBytes;
  const encoding = (res.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  const declared = Number(res.headers['content-length']);
  if (encoding === 'identity' && Number.isFinite(declared) && declared > limit) {
    res.destroy();
    throw tooLarge(limit);
  }

  const decoder = decoderFor(encoding);
  const source: Readable = decoder ? res.pipe(decoder) : res;
  // The limit counts decoded bytes, so a small compressed bomb stops as early as a large plain body.
  res.once('error', (error) => decoder?.destroy(error));
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of source as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > limit) throw tooLarge(limit);
      chunks.push(chunk);
    }
  } catch (error) {
    if (decoder && isZlibError(error)) throw new ExchangeError('bad_encoding', `the ${encoding} response body could not be decoded`);
    throw error;
  } finally {
    res.destroy();
    decoder?.destroy();
  }
  return Buffer.concat(chunks, size);
}

function decoderFor(encoding: string) {
  switch (encoding) {
    case 'gzip':
    case 'x-gzip':
      return createGunzip();
    case 'deflate':
      return createInflate();
    case 'br':
      return createBrotliDecompress();
    default:
      // identity, or an encoding the caller asked for by setting accept-encoding: passed through as is.
      return undefined;
  }
}

function isZlibError(error: unknown): boolean {
  return (
    typeof (error as { errno?: unknown }).errno === 'number' &&
    typeof (error as { code?: unknown }).code === 'string' &&
    (error as { code: string }).code.startsWith('Z_')
  );
}

function tooLarge(limit: number): ExchangeError {
  return new ExchangeError('too_large', `the response body is larger than ${limit} bytes`, { limit_bytes: limit });
}

/** A `lookup` for net.connect that answers with the already-checked addresses only. */
function pinnedLookup(addresses: ResolvedAddress[]): LookupFunction {
  return (
    hostname: string,
    options: LookupOptions,
    callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    const family = options.family === 4 || options.family === 'IPv4' ? 4 : options.family === 6 || options.family === 'IPv6' ? 6 : 0;
    const candidates = family ? addresses.filter((a) => a.family === family) : addresses;
    if (candidates.length === 0) {
      const error: NodeJS.ErrnoException = new Error(`no IPv${family} address for ${hostname}`);
      error.code = 'ENOTFOUND';
      callback(error, '', 0);
    } else if (options.all) callback(null, candidates);
    else callback(null, candidates[0].address, candidates[0].family);
  };
}
