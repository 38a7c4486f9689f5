import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { clientHttpSpan } from '@platform/common';
import { BlockedAddressError, isBlocked } from './address-guard.js';

export interface HttpAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

const MAX_ANSWER_BYTES = 64 * 1024;

/**
 * A `lookup` for the socket itself: the name is resolved once and the connection goes to the
 * address that was checked, so a DNS answer that changes between check and connect (rebinding)
 * cannot reach a private address.
 */
function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      const usable = allowPrivate ? addresses : addresses.filter((a) => !isBlocked(a.address, a.family));
      if (!usable.length) return callback(new BlockedAddressError(`${hostname} resolves to a private or local address`), '', 0);
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, usable);
      callback(null, usable[0].address, usable[0].family);
    });
  };
}

/** Kept-alive connections per scheme and address policy: a burst to one webhook reuses its sockets (each checked when it connected). */
const agents = new Map<string, HttpAgent>();
function agentFor(https: boolean, allowPrivate: boolean): HttpAgent {
  const key = `${https}/${allowPrivate}`;
  let agent = agents.get(key);
  if (!agent) {
    const options = { keepAlive: true, keepAliveMsecs: 1000, maxSockets: 256, maxFreeSockets: 64, lookup: guardedLookup(allowPrivate) };
    agent = https ? new HttpsAgent(options) : new HttpAgent(options);
    agents.set(key, agent);
  }
  return agent;
}

/**
 * POSTs JSON without following redirects; answers the status, headers and the first 64 KiB of the
 * body. With tracing on, in a client span whose `traceparent` goes along.
 */
export function postJson(url: URL, payload: unknown, headers: Record<string, string>, timeoutMs: number, allowPrivate: boolean): Promise<HttpAnswer> {
  return clientHttpSpan('POST', url, headers, (sent) => post(url, payload, sent, timeoutMs, allowPrivate));
}

function post(url: URL, payload: unknown, headers: Record<string, string>, timeoutMs: number, allowPrivate: boolean): Promise<HttpAnswer> {
  // An address literal is connected to without a lookup: check it here.
  const literal = url.hostname.replace(/^\[|\]$/g, '');
  if (!allowPrivate && isIP(literal) && isBlocked(literal, isIP(literal))) {
    return Promise.reject(new BlockedAddressError(`${url.hostname} is a private or local address`));
  }
  const body = Buffer.from(JSON.stringify(payload), 'utf8');
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json; charset=utf-8', 'content-length': String(body.length), ...headers },
        agent: agentFor(url.protocol === 'https:', allowPrivate),
        timeout: timeoutMs,
        signal: AbortSignal.timeout(timeoutMs),
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          if (size < MAX_ANSWER_BYTES) chunks.push(chunk);
          size += chunk.length;
        });
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8').slice(0, MAX_ANSWER_BYTES) }),
        );
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}
