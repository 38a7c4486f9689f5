import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { PublicFetchError, fetchPublicUrl, publicUrlProblem } from './public-fetch.js';

describe('fetchPublicUrl (the SSRF rules of http.request)', () => {
  let server: Server;
  let base = '';

  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/redirect') res.writeHead(302, { location: '/doc' }).end();
      else if (req.url === '/doc') res.writeHead(200, { 'content-type': 'text/plain' }).end('hello document');
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => {
    server.close();
  });

  it('refuses loopback, private and metadata addresses unless private networks are allowed', async () => {
    const refused = await fetchPublicUrl(`${base}/doc`, { allowPrivateNetworks: false, limitBytes: 1000, timeoutMs: 2000 }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(PublicFetchError);
    expect((refused as PublicFetchError).code).toBe('ssrf_blocked');
    const metadata = await fetchPublicUrl('http://169.254.169.254/latest', { allowPrivateNetworks: false, limitBytes: 1000, timeoutMs: 2000 }).catch(
      (e: unknown) => e,
    );
    expect((metadata as PublicFetchError).code).toBe('ssrf_blocked');
  });

  it('follows redirects, checking each hop, and cuts bodies at the limit', async () => {
    const ok = await fetchPublicUrl(`${base}/redirect`, { allowPrivateNetworks: true, limitBytes: 1000, timeoutMs: 2000 });
    expect(ok.body?.toString()).toBe('hello document');
    expect(ok.url).toBe(`${base}/doc`);
    const big = await fetchPublicUrl(`${base}/doc`, { allowPrivateNetworks: true, limitBytes: 5, timeoutMs: 2000 }).catch((e: unknown) => e);
    expect((big as PublicFetchError).code).toBe('too_large');
    const missing = await fetchPublicUrl(`${base}/nope`, { allowPrivateNetworks: true, limitBytes: 1000, timeoutMs: 2000 }).catch((e: unknown) => e);
    expect((missing as PublicFetchError).code).toBe('http_error');
  });

  it('names URL problems', () => {
    expect(publicUrlProblem('file:///etc/passwd')).toBe('must be an http or https URL');
    expect(publicUrlProblem('https://user:pw@example.com/')).toBe('must not carry credentials');
    expect(publicUrlProblem('https://example.com/a')).toBeUndefined();
  });
});
