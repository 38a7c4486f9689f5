import { classifyAddress, resolveHost, systemResolver, type AddressPolicy, type HostResolver } from './address-policy.js';
import { sendRequest, type RawResponse } from './send-request.js';

export interface PublicFetchOptions {
  /** Reach private, loopback and link-local addresses too (tests, on-premise deployments). */
  allowPrivateNetworks: boolean;
  limitBytes: number;
  timeoutMs: number;
  maxRedirects?: number;
  headers?: Record<string, string>;
  resolver?: HostResolver;
  policy?: AddressPolicy;
}

/** Why a fetch was refused or failed, with a message safe to show the caller. */
export class PublicFetchError extends Error {
  constructor(
    readonly code: 'invalid_url' | 'ssrf_blocked' | 'too_many_redirects' | 'http_error' | 'network_error' | 'timeout' | 'too_large',
    message: string,
  ) {
    super(message);
    this.name = 'PublicFetchError';
  }
}

/** `http:` or `https:` with a host and no credentials; undefined when fine. */
export function publicUrlProblem(raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'is not a valid URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an http or https URL';
  if (!url.hostname) return 'has no host';
  if (url.username || url.password) return 'must not carry credentials';
  return undefined;
}

/**
 * A GET under the SSRF rules of the workflow `http.request` step: every hop's host is resolved and
 * each address classified (only globally routable unicast passes unless private networks are
 * allowed), the socket connects only to those checked addresses (no DNS rebinding), the peer is
 * checked again once connected, redirects are followed by hand (each target checked the same
 * way), and the body is cut off at `limitBytes`. Used where a user-given URL is fetched by the
 * platform (knowledge-base documents).
 */
export async function fetchPublicUrl(raw: string, options: PublicFetchOptions): Promise<RawResponse & { url: string }> {
  const problem = publicUrlProblem(raw);
  if (problem) throw new PublicFetchError('invalid_url', `the URL ${problem}`);
  const policy = options.policy ?? classifyAddress;
  const resolver = options.resolver ?? systemResolver;
  const signal = AbortSignal.timeout(options.timeoutMs);
  let url = new URL(raw);
  for (let hop = 0; hop <= (options.maxRedirects ?? 5); hop++) {
    const addresses = await resolveHost(url.hostname, resolver, signal).catch((error: Error) => {
      throw new PublicFetchError(signal.aborted ? 'timeout' : 'network_error', `${url.hostname} could not be resolved (${error.message})`);
    });
    if (!addresses.length) throw new PublicFetchError('network_error', `${url.hostname} has no address`);
    if (!options.allowPrivateNetworks) {
      for (const { address } of addresses) {
        const verdict = policy(address);
        if (!verdict.allowed)
          throw new PublicFetchError('ssrf_blocked', `${url.hostname} resolves to ${address}, a ${verdict.range} address, which may not be fetched`);
      }
    }
    let response: RawResponse;
    try {
      response = await sendRequest({
        method: 'GET',
        url,
        headers: { accept: '*/*', 'user-agent': 'platform-fetch/1', ...(options.headers ?? {}) },
        body: undefined,
        addresses,
        policy: options.allowPrivateNetworks ? undefined : policy,
        limitBytes: options.limitBytes,
        signal,
      });
    } catch (error) {
      if (signal.aborted) throw new PublicFetchError('timeout', `${url.host} did not answer within ${options.timeoutMs} ms`);
      const kind = (error as { kind?: string }).kind;
      if (kind === 'too_large') throw new PublicFetchError('too_large', `the document is larger than ${options.limitBytes} bytes`);
      if (kind === 'blocked_peer') throw new PublicFetchError('ssrf_blocked', (error as Error).message);
      throw new PublicFetchError('network_error', `${url.host} failed: ${(error as Error).message}`);
    }
    if (response.body === undefined && response.headers.location) {
      const next = new URL(response.headers.location, url);
      const nextProblem = publicUrlProblem(next.href);
      if (nextProblem) throw new PublicFetchError('invalid_url', `the redirect location ${nextProblem}`);
      url = next;
      continue;
    }
    if (response.status >= 400) throw new PublicFetchError('http_error', `${url.host} answered ${response.status}`);
    return { ...response, url: url.href };
  }
  throw new PublicFetchError('too_many_redirects', 'too many redirects');
}
