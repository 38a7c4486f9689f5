import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

/** Which limit applies: the kind of credential a request carries. */
export type CallerClass = 'live' | 'test' | 'user' | 'anonymous' | 'webhook';

export interface Caller {
  class: CallerClass;
  /** The counter's id: `key:<sha256>`, `user:<sha256>`, `webhook:<id>` or `ip:<address>`; never a raw credential. */
  id: string;
}

const LIVE_PREFIX = 'sv_live_';
const TEST_PREFIX = 'sv_test_';
const BEARER = /^bearer[ \t]+/i;

/**
 * Names the caller a request is counted against, without verifying anything: the services
 * verify credentials, the gateway only counts. An API key (`X-API-Key`, or `Authorization:
 * Bearer` with a key prefix) is counted per key; any other bearer token is a JWT, counted per
 * user and selected tenant; a request without credentials is counted per client address.
 */
const WEBHOOK_INTAKE = /^\/webhooks\/in\/([0-9a-fA-F-]{36})(?:[/?]|$)/;

/**
 * A delivery to a public webhook address is counted against that webhook, not its sender's
 * address: Stripe or GitHub send every customer's deliveries from a few addresses.
 */
export function identifyCaller(headers: IncomingHttpHeaders, remoteAddress: string | undefined, path = ''): Caller {
  const webhook = WEBHOOK_INTAKE.exec(path);
  if (webhook) return { class: 'webhook', id: `webhook:${webhook[1].toLowerCase()}` };
  // Node has already stripped the whitespace around header values.
  const apiKey = headers['x-api-key'];
  if (typeof apiKey === 'string') {
    const keyClass = apiKeyClass(apiKey);
    if (keyClass) return { class: keyClass, id: `key:${sha256(apiKey)}` };
  }
  const authorization = headers.authorization;
  if (authorization !== undefined) {
    const scheme = BEARER.exec(authorization);
    const token = scheme ? authorization.slice(scheme[0].length).trim() : '';
    if (token) {
      const keyClass = apiKeyClass(token);
      if (keyClass) return { class: keyClass, id: `key:${sha256(token)}` };
      const sub = jwtSubject(token);
      const tenant = headers['x-selected-tenant'];
      return { class: 'user', id: `user:${sha256(sub === undefined ? token : `${sub}|${typeof tenant === 'string' ? tenant : ''}`)}` };
    }
  }
  return { class: 'anonymous', id: `ip:${remoteAddress ?? 'unknown'}` };
}

function apiKeyClass(key: string): 'live' | 'test' | undefined {
  if (key.length > LIVE_PREFIX.length && key.startsWith(LIVE_PREFIX)) return 'live';
  if (key.length > TEST_PREFIX.length && key.startsWith(TEST_PREFIX)) return 'test';
  return undefined;
}

/** The `sub` claim of a JWT's payload, read without verifying the signature; undefined if it does not decode. */
export function jwtSubject(token: string): string | undefined {
  const start = token.indexOf('.');
  if (start === -1) return undefined;
  const end = token.indexOf('.', start + 1);
  if (end === -1) return undefined;
  try {
    const payload: unknown = JSON.parse(Buffer.from(token.slice(start + 1, end), 'base64url').toString('utf8'));
    const sub = typeof payload === 'object' && payload !== null ? (payload as { sub?: unknown }).sub : undefined;
    return typeof sub === 'string' && sub !== '' ? sub : undefined;
  } catch {
    return undefined;
  }
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
