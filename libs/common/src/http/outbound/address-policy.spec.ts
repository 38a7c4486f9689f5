import { describe, expect, it } from '@jest/globals';
import { classifyAddress, resolveHost, type HostResolver } from './address-policy.js';

describe('classifyAddress', () => {
  const blocked: Array<[string, string]> = [
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['169.254.0.1', 'linkLocal'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['100.127.255.255', 'carrierGradeNat'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.2.1', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fc00::1', 'uniqueLocal'],
    ['fd12:3456:789a::1', 'uniqueLocal'],
    ['fe80::1', 'linkLocal'],
    ['fe80::1%eth0', 'linkLocal'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'ipv4Mapped(loopback)'],
    ['::ffff:7f00:1', 'ipv4Mapped(loopback)'],
    ['::ffff:169.254.169.254', 'ipv4Mapped(linkLocal)'],
    ['::ffff:10.0.0.1', 'ipv4Mapped(private)'],
    ['::ffff:0:127.0.0.1', 'rfc6145(loopback)'],
    ['64:ff9b::127.0.0.1', 'rfc6052(loopback)'],
    ['64:ff9b::a9fe:a9fe', 'rfc6052(linkLocal)'],
    ['64:ff9b:1::1', 'rfc6052'],
    ['2002:7f00:1::1', '6to4(loopback)'],
    ['2002:a00:1::', '6to4(private)'],
    // ipaddr.js reads the dotted form as IPv4-mapped; the URL parser writes it `::7f00:1` (next row)
    ['::127.0.0.1', 'ipv4Mapped(loopback)'],
    ['::7f00:1', 'ipv4Compatible'],
    ['2001:db8::1', 'reserved'],
    ['2001::1', 'teredo'],
    ['[::1]', 'loopback'],
    ['not an address', 'invalid'],
    ['', 'invalid'],
  ];

  it.each(blocked)('refuses %s (%s)', (address, range) => {
    expect(classifyAddress(address)).toEqual({ allowed: false, range });
  });

  const allowed: Array<[string, string]> = [
    ['93.184.216.34', 'unicast'],
    ['8.8.8.8', 'unicast'],
    ['1.1.1.1', 'unicast'],
    ['172.15.255.255', 'unicast'],
    ['172.32.0.1', 'unicast'],
    ['100.63.255.255', 'unicast'],
    ['100.128.0.1', 'unicast'],
    ['2606:4700:4700::1111', 'unicast'],
    ['2a00:1450:4001:80b::200e', 'unicast'],
    ['::ffff:8.8.8.8', 'ipv4Mapped(unicast)'],
    ['64:ff9b::8.8.8.8', 'rfc6052(unicast)'],
    ['2002:808:808::1', '6to4(unicast)'],
  ];

  it.each(allowed)('allows %s (%s)', (address, range) => {
    expect(classifyAddress(address)).toEqual({ allowed: true, range });
  });
});

describe('resolveHost', () => {
  const signal = new AbortController().signal;
  const never: HostResolver = () => Promise.reject(new Error('must not be called for an IP literal'));

  it('takes IP literals as they are, without DNS', async () => {
    await expect(resolveHost('127.0.0.1', never, signal)).resolves.toEqual([{ address: '127.0.0.1', family: 4 }]);
    await expect(resolveHost('[::1]', never, signal)).resolves.toEqual([{ address: '::1', family: 6 }]);
  });

  it('sees the odd IPv4 spellings as the address the URL parser makes of them', async () => {
    for (const url of ['http://2130706433/', 'http://0x7f.1/', 'http://017700000001/', 'http://127.1/', 'http://0x7f000001/', 'http://0177.0.0.1/']) {
      const { hostname } = new URL(url);
      const [resolved] = await resolveHost(hostname, never, signal);
      expect({ url, address: resolved.address, allowed: classifyAddress(resolved.address).allowed }).toEqual({ url, address: '127.0.0.1', allowed: false });
    }
    expect(new URL('http://0/').hostname).toBe('0.0.0.0');
    expect(new URL('http://[::ffff:127.0.0.1]/').hostname).toBe('[::ffff:7f00:1]');
  });

  it('resolves names with the resolver and returns every answer', async () => {
    const resolver: HostResolver = (host) =>
      Promise.resolve(
        host === 'two.test'
          ? [
              { address: '8.8.8.8', family: 4 as const },
              { address: '10.0.0.1', family: 4 as const },
            ]
          : [],
      );
    await expect(resolveHost('two.test', resolver, signal)).resolves.toHaveLength(2);
  });
});
