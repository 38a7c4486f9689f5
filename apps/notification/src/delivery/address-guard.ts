import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/** Loopback, private, link-local (cloud metadata), CGNAT, unspecified and multicast ranges. */
const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['::ffff:0:0', 96],
] as const)
  blocked.addSubnet(net, prefix, 'ipv6');

export class BlockedAddressError extends Error {}

export function isBlocked(address: string, family: number): boolean {
  return blocked.check(address, family === 6 ? 'ipv6' : 'ipv4');
}

/**
 * Refuses a host that resolves to a private or local address, so a channel cannot be pointed at
 * the platform's own network (SSRF). For SMTP, checked before each attempt: the SMTP client then
 * resolves the name again, so a DNS answer that changes in between is not caught there (HTTP
 * deliveries check inside the socket's own lookup instead: see http-post.ts).
 */
export async function checkHost(host: string, allowPrivate: boolean): Promise<void> {
  if (allowPrivate) return;
  const bare = host.replace(/^\[|\]$/g, '');
  const addresses = isIP(bare) ? [{ address: bare, family: isIP(bare) }] : await lookup(bare, { all: true });
  for (const { address, family } of addresses) {
    if (isBlocked(address, family)) throw new BlockedAddressError(`${host} resolves to a private or local address`);
  }
}
