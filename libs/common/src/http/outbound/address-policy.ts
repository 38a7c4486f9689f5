import ipaddr from 'ipaddr.js';
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';

/** One answer of a name lookup, as `dns.lookup(host, { all: true })` gives it. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to every address it has; injectable so tests can stand in for DNS. */
export type HostResolver = (hostname: string, signal: AbortSignal) => Promise<ResolvedAddress[]>;

export interface AddressVerdict {
  allowed: boolean;
  /** The ipaddr.js range name (`unicast`, `loopback`, `private`, …), or why the address was refused. */
  range: string;
}

/** Decides whether http.request may connect to an address; injectable for tests. */
export type AddressPolicy = (address: string) => AddressVerdict;

/**
 * The SSRF classifier: only globally routable unicast addresses are allowed. Everything else that
 * ipaddr.js names (loopback, private, uniqueLocal, linkLocal incl. 169.254.169.254, unspecified,
 * carrierGradeNat, multicast, broadcast, reserved, benchmarking, teredo, …) is refused. IPv6
 * forms that carry an IPv4 address (IPv4-mapped `::ffff:a.b.c.d`, SIIT `::ffff:0:a.b.c.d`, NAT64
 * `64:ff9b::a.b.c.d`, 6to4 `2002:AABB:CCDD::`) are judged by the IPv4 address they carry, so a
 * public address reached through NAT64 still works and `::ffff:127.0.0.1` does not.
 */
export function classifyAddress(address: string): AddressVerdict {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    // parse(), not process(): an IPv4-mapped address must stay IPv6 here and be unwrapped below.
    parsed = ipaddr.parse(stripBrackets(address));
  } catch {
    return { allowed: false, range: 'invalid' };
  }
  if (parsed.kind() === 'ipv4') {
    const range = (parsed as ipaddr.IPv4).range();
    return { allowed: range === 'unicast', range };
  }
  const v6 = parsed as ipaddr.IPv6;
  const range = v6.range();
  const embedded = embeddedIPv4(v6, range);
  if (embedded) {
    const inner = classifyAddress(embedded.toString());
    return { allowed: inner.allowed, range: `${range}(${inner.range})` };
  }
  // ::/96 (deprecated IPv4-compatible, RFC 4291) is not in ipaddr.js's table and would pass as unicast.
  if (range === 'unicast' && v6.parts.slice(0, 6).every((part) => part === 0)) return { allowed: false, range: 'ipv4Compatible' };
  return { allowed: range === 'unicast', range };
}

function embeddedIPv4(address: ipaddr.IPv6, range: string): ipaddr.IPv4 | undefined {
  const p = address.parts;
  const fromWords = (high: number, low: number) => new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
  switch (range) {
    case 'ipv4Mapped':
    case 'rfc6145':
      return fromWords(p[6], p[7]);
    case 'rfc6052':
      // 64:ff9b::/96 carries the address in its last 32 bits; 64:ff9b:1::/48 (local-use, RFC 8215)
      // may embed it elsewhere and only exists inside private networks: refuse it outright.
      return p[2] === 0 ? fromWords(p[6], p[7]) : undefined;
    case '6to4':
      return fromWords(p[1], p[2]);
    default:
      return undefined;
  }
}

function stripBrackets(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

/** `dns.lookup` with every answer, abandoned (not cancelled: getaddrinfo cannot be) on abort. */
export const systemResolver: HostResolver = async (hostname, signal) => {
  const answers = await raceAbort(lookup(hostname, { all: true }), signal);
  return answers.map((answer) => ({ address: answer.address, family: answer.family === 6 ? 6 : 4 }));
};

/**
 * The addresses a URL host stands for: an IP literal is itself (the WHATWG parser has already
 * turned `2130706433`, `0x7f.1` and `017700000001` into `127.0.0.1`), a name is resolved.
 */
export async function resolveHost(hostname: string, resolver: HostResolver, signal: AbortSignal): Promise<ResolvedAddress[]> {
  const host = stripBrackets(hostname);
  const literal = isIP(host);
  if (literal) return [{ address: host, family: literal === 6 ? 6 : 4 }];
  return resolver(host, signal);
}

function raceAbort<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: Error) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
