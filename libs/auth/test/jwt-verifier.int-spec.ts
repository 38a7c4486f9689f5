import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { base64url, exportSPKI, importJWK, SignJWT, type JWK } from 'jose';
import { JwtVerifier, type JwtVerifierOptions } from '../src/jwt/jwt-verifier.js';
import { JwtVerificationError, type JwtVerificationReason } from '../src/jwt/jwt.errors.js';
import { startJwksServer, type JwksServer } from '../src/testing/jwks-server.js';

const SUB = '7d0c6a4e-3f55-4b8e-9c1a-2f4f7a0b9e11';
const TENANT_A = '0b6f2f5e-8a53-4c1e-9e0f-6c1d2a3b4c5d';
const TENANT_B = '5a4e3d2c-1b0a-4f9e-8d7c-6b5a4f3e2d1c';
const CLAIMS = { sub: SUB, email: 'ada@example.com', tenants: [TENANT_A, TENANT_B], authorized_tenants: [TENANT_A] };
const now = () => Math.floor(Date.now() / 1000);

/** The reason a token is refused for; also checks the message never repeats the token. */
async function refusal(verifier: JwtVerifier, token: string): Promise<JwtVerificationReason> {
  let outcome: unknown;
  try {
    outcome = await verifier.verify(token);
  } catch (error) {
    expect(error).toBeInstanceOf(JwtVerificationError);
    const { message, reason } = error as JwtVerificationError;
    expect(message.length).toBeGreaterThan(0);
    if (token.length > 0) expect(message).not.toContain(token);
    const signature = token.split('.')[2];
    if (signature && signature.length > 8) expect(message).not.toContain(signature);
    return reason;
  }
  throw new Error(`expected the token to be refused, got ${JSON.stringify(outcome)}`);
}

/** A port nothing listens on (free a moment ago). */
async function unusedPort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A small HTTP server for discovery edge cases; counts the requests per path. */
async function startHttpServer(handler: (request: IncomingMessage, response: ServerResponse, hits: number) => void) {
  const hits = new Map<string, number>();
  const server = createHttpServer((request, response) => {
    const path = request.url ?? '/';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    handler(request, response, hits.get(path) ?? 0);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits: (path: string) => hits.get(path) ?? 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

describe('JwtVerifier against a JWKS server over HTTP', () => {
  let idp: JwksServer;
  let verifier: JwtVerifier;
  const make = (options: JwtVerifierOptions = {}) => new JwtVerifier({ jwksUrl: idp.jwksUrl, issuer: idp.issuer, ...options });

  beforeAll(async () => {
    idp = await startJwksServer();
    verifier = make();
  });

  afterAll(async () => {
    await idp?.close();
  });

  describe('valid tokens', () => {
    it.each(['RS256', 'ES256'] as const)('verifies a %s token and returns its claims', async (alg) => {
      const iat = now();
      const token = await idp.sign(CLAIMS, { alg, issuedAt: iat });
      await expect(verifier.verify(token)).resolves.toEqual({
        sub: SUB,
        email: 'ada@example.com',
        tenants: [TENANT_A, TENANT_B],
        authorizedTenants: [TENANT_A],
        iat,
        exp: expect.any(Number),
      });
    });

    it('finds the JWKS by OIDC discovery from the issuer', async () => {
      const discovered = new JwtVerifier({ issuer: idp.issuer });
      for (const alg of ['RS256', 'ES256'] as const) {
        await expect(discovered.verify(await idp.sign(CLAIMS, { alg }))).resolves.toMatchObject({ sub: SUB });
      }
    });

    it('defaults missing email and tenant lists', async () => {
      await expect(verifier.verify(await idp.sign({ sub: SUB }))).resolves.toMatchObject({
        sub: SUB,
        email: null,
        tenants: [],
        authorizedTenants: [],
      });
    });

    it('does not check the issuer when none is configured', async () => {
      const anyIssuer = new JwtVerifier({ jwksUrl: idp.jwksUrl });
      await expect(anyIssuer.verify(await idp.sign(CLAIMS, { issuer: 'https://elsewhere.example.test' }))).resolves.toMatchObject({ sub: SUB });
    });

    it('accepts a token that expired within the clock tolerance', async () => {
      await expect(verifier.verify(await idp.sign(CLAIMS, { expiresIn: -10 }))).resolves.toMatchObject({ sub: SUB });
      expect(await refusal(make({ clockToleranceSeconds: 0 }), await idp.sign(CLAIMS, { expiresIn: -10 }))).toBe('expired');
    });

    it('accepts a token whose audience list includes the configured audience', async () => {
      const withAudience = make({ audience: 'platform-api' });
      await expect(withAudience.verify(await idp.sign(CLAIMS, { audience: ['other', 'platform-api'] }))).resolves.toMatchObject({ sub: SUB });
    });
  });

  describe('time', () => {
    it('refuses an expired token', async () => {
      expect(await refusal(verifier, await idp.sign(CLAIMS, { expiresIn: -60 }))).toBe('expired');
      expect(await refusal(verifier, await idp.sign(CLAIMS, { expiresIn: '-1h' }))).toBe('expired');
    });

    it('refuses a token issued 10 minutes in the future', async () => {
      const token = await idp.sign(CLAIMS, { issuedAt: now() + 600, expiresIn: 3600 });
      expect(await refusal(verifier, token)).toBe('not_yet_valid');
    });

    it('accepts an iat slightly in the future, within the tolerance', async () => {
      await expect(verifier.verify(await idp.sign(CLAIMS, { issuedAt: now() + 10 }))).resolves.toMatchObject({ sub: SUB });
    });

    it('refuses a token before its nbf', async () => {
      expect(await refusal(verifier, await idp.sign({ ...CLAIMS, nbf: now() + 600 }))).toBe('not_yet_valid');
    });
  });

  describe('issuer and audience', () => {
    it('refuses a token from another issuer', async () => {
      expect(await refusal(verifier, await idp.sign(CLAIMS, { issuer: 'https://evil.example.test' }))).toBe('bad_issuer');
      expect(await refusal(verifier, await idp.sign({ ...CLAIMS, iss: undefined }))).toBe('bad_issuer');
    });

    it('refuses a token for another audience, or none, when an audience is configured', async () => {
      const withAudience = make({ audience: 'platform-api' });
      expect(await refusal(withAudience, await idp.sign(CLAIMS, { audience: 'other-api' }))).toBe('bad_audience');
      expect(await refusal(withAudience, await idp.sign(CLAIMS))).toBe('bad_audience');
    });

    it('ignores the audience when none is configured', async () => {
      await expect(verifier.verify(await idp.sign(CLAIMS, { audience: 'other-api' }))).resolves.toMatchObject({ sub: SUB });
    });
  });

  describe('signatures and algorithms', () => {
    it.each(['RS256', 'ES256'] as const)('refuses a %s token signed by a key not in the JWKS (same kid)', async (alg) => {
      expect(await refusal(verifier, await idp.signWithForeignKey(CLAIMS, { alg }))).toBe('bad_signature');
    });

    it('refuses a token whose kid is not in the JWKS', async () => {
      expect(await refusal(verifier, await idp.sign(CLAIMS, { kid: 'unknown-kid' }))).toBe('bad_signature');
    });

    it('refuses a token whose payload was altered after signing', async () => {
      const [header, , signature] = (await idp.sign(CLAIMS)).split('.');
      const forged = base64url.encode(JSON.stringify({ ...CLAIMS, authorized_tenants: [TENANT_B], iss: idp.issuer, iat: now(), exp: now() + 300 }));
      expect(await refusal(verifier, `${header}.${forged}.${signature}`)).toBe('bad_signature');
    });

    it('never accepts alg: none', async () => {
      const token = idp.unsignedToken(CLAIMS);
      expect(token.endsWith('.')).toBe(true);
      expect(['bad_algorithm', 'malformed']).toContain(await refusal(verifier, token));
    });

    it('refuses an HS256 token using the public key as the HMAC secret (key confusion)', async () => {
      const jwks = (await (await fetch(idp.jwksUrl)).json()) as { keys: JWK[] };
      const rsa = jwks.keys.find((key) => key.alg === 'RS256');
      if (!rsa?.kid) throw new Error('no RS256 key in the JWKS');
      const pem = await exportSPKI((await importJWK(rsa, 'RS256', { extractable: true })) as Parameters<typeof exportSPKI>[0]);
      for (const secret of [pem, JSON.stringify(rsa), rsa.n ?? '']) {
        const token = await new SignJWT({ ...CLAIMS, iss: idp.issuer, iat: now(), exp: now() + 300 })
          .setProtectedHeader({ alg: 'HS256', kid: rsa.kid, typ: 'JWT' })
          .sign(new TextEncoder().encode(secret));
        expect(await refusal(verifier, token)).toBe('bad_algorithm');
      }
    });

    it('refuses an algorithm left out of a narrowed allowlist', async () => {
      const esOnly = make({ algorithms: ['ES256'] });
      await expect(esOnly.verify(await idp.sign(CLAIMS, { alg: 'ES256' }))).resolves.toMatchObject({ sub: SUB });
      expect(await refusal(esOnly, await idp.sign(CLAIMS, { alg: 'RS256' }))).toBe('bad_algorithm');
    });
  });

  describe('malformed tokens', () => {
    const segment = () => base64url.encode(randomBytes(24));

    it.each([
      ['garbage', () => 'garbage'],
      ['empty', () => ''],
      ['three random segments', () => `${segment()}.${segment()}.${segment()}`],
      ['two segments', () => `${segment()}.${segment()}`],
      ['a header that is not JSON', () => `${base64url.encode('{"alg":')}.${segment()}.${segment()}`],
    ])('refuses %s', async (_, token) => {
      expect(await refusal(verifier, token())).toBe('malformed');
    });

    it('refuses a validly signed token over 8 KiB', async () => {
      const token = await idp.sign({ ...CLAIMS, padding: 'x'.repeat(9 * 1024) });
      expect(token.length).toBeGreaterThan(9 * 1024);
      expect(await refusal(verifier, token)).toBe('malformed');
    });

    it('refuses a non-JSON payload', async () => {
      const [header, , signature] = (await idp.sign(CLAIMS)).split('.');
      expect(['malformed', 'bad_signature']).toContain(await refusal(verifier, `${header}.${base64url.encode('not json')}.${signature}`));
    });
  });

  describe('claims', () => {
    it.each([
      ['exp missing', { exp: undefined }],
      ['iat missing', { iat: undefined }],
      ['sub missing', { sub: undefined }],
      ['sub empty', { sub: '' }],
      ['sub not a string', { sub: 42 }],
      ['exp not a number', { exp: 'tomorrow' }],
      ['email not a string', { email: 42 }],
    ])('refuses a token with %s', async (_, override) => {
      expect(['bad_claims', 'malformed']).toContain(await refusal(verifier, await idp.sign({ ...CLAIMS, ...override })));
    });

    it.each([
      ['authorized_tenants a string', { authorized_tenants: TENANT_A }],
      ['authorized_tenants holding a number', { authorized_tenants: [TENANT_A, 7] }],
      ['authorized_tenants an object', { authorized_tenants: { [TENANT_A]: true } }],
      ['authorized_tenants null', { authorized_tenants: null }],
      ['tenants a string', { tenants: TENANT_A }],
    ])('refuses a token with %s', async (_, override) => {
      expect(await refusal(verifier, await idp.sign({ ...CLAIMS, ...override }))).toBe('bad_claims');
    });
  });
});

describe('JwtVerifier when keys cannot be fetched', () => {
  it("refuses with 'no_keys' within seconds when the JWKS URL has nothing listening", async () => {
    const idp = await startJwksServer();
    try {
      const token = await idp.sign(CLAIMS);
      const started = Date.now();
      const unreachable = new JwtVerifier({ jwksUrl: `http://127.0.0.1:${await unusedPort()}/jwks.json` });
      expect(await refusal(unreachable, token)).toBe('no_keys');
      // A refused connection answers at once; the bound only rules out retrying for long.
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      await idp.close();
    }
  });

  it("refuses with 'no_keys' when discovery has nothing listening", async () => {
    const idp = await startJwksServer();
    try {
      const issuer = `http://127.0.0.1:${await unusedPort()}`;
      const token = await idp.sign(CLAIMS, { issuer });
      expect(await refusal(new JwtVerifier({ issuer }), token)).toBe('no_keys');
    } finally {
      await idp.close();
    }
  });

  it('gives up after fetchTimeoutMs on an endpoint that never answers, for the JWKS and for discovery', async () => {
    const sockets = new Set<Socket>();
    const silent = createNetServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    const idp = await startJwksServer();
    try {
      const token = await idp.sign(CLAIMS, { issuer: base });
      for (const options of [{ jwksUrl: `${base}/jwks.json` }, { issuer: base }]) {
        const started = Date.now();
        const error = await new JwtVerifier({ ...options, fetchTimeoutMs: 300 }).verify(token).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(JwtVerificationError);
        expect((error as JwtVerificationError).reason).toBe('no_keys');
        // Nearly ten times the 300 ms asked for, and still below the 3 s default it must not fall back to.
        expect(Date.now() - started).toBeLessThan(2_900);
      }
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
      await idp.close();
    }
  });

  it("refuses with 'no_keys' when the discovery document names another issuer", async () => {
    const idp = await startJwksServer({ issuer: 'https://impostor.example.test' });
    try {
      const token = await idp.sign(CLAIMS, { issuer: idp.url });
      const error = await new JwtVerifier({ issuer: idp.url }).verify(token).catch((e: unknown) => e);
      expect((error as JwtVerificationError).reason).toBe('no_keys');
      expect((error as JwtVerificationError).message).toMatch(/issuer/);
    } finally {
      await idp.close();
    }
  });

  it('retries a failed discovery on the next verification, then keeps the result', async () => {
    const idp = await startJwksServer();
    const flaky = await startHttpServer((request, response, hits) => {
      if (hits === 1) return sendJson(response, 503, { error: 'unavailable' });
      sendJson(response, 200, { issuer: flaky.url, jwks_uri: idp.jwksUrl });
    });
    try {
      const discovered = new JwtVerifier({ issuer: flaky.url });
      const token = await idp.sign(CLAIMS, { issuer: flaky.url });
      expect(await refusal(discovered, token)).toBe('no_keys');
      await expect(discovered.verify(token)).resolves.toMatchObject({ sub: SUB });
      await Promise.all([discovered.verify(token), discovered.verify(token), discovered.verify(token)]);
      expect(flaky.hits('/.well-known/openid-configuration')).toBe(2);
    } finally {
      await flaky.close();
      await idp.close();
    }
  });

  it('runs discovery once for concurrent first verifications, with a trailing slash on the issuer', async () => {
    const idp = await startJwksServer();
    const discovery = await startHttpServer((request, response) => {
      sendJson(response, 200, { issuer: `${discovery.url}/`, jwks_uri: idp.jwksUrl });
    });
    try {
      const discovered = new JwtVerifier({ issuer: `${discovery.url}/` });
      const token = await idp.sign(CLAIMS, { issuer: `${discovery.url}/` });
      const results = await Promise.all(Array.from({ length: 5 }, () => discovered.verify(token)));
      expect(results.every((claims) => claims.sub === SUB)).toBe(true);
      expect(discovery.hits('/.well-known/openid-configuration')).toBe(1);
    } finally {
      await discovery.close();
      await idp.close();
    }
  });

  it("refuses with 'no_keys' when the JWKS answers with an error", async () => {
    const idp = await startJwksServer();
    const broken = await startHttpServer((request, response) => sendJson(response, 500, { error: 'boom' }));
    try {
      const token = await idp.sign(CLAIMS);
      expect(await refusal(new JwtVerifier({ jwksUrl: `${broken.url}/jwks.json` }), token)).toBe('no_keys');
    } finally {
      await broken.close();
      await idp.close();
    }
  });
});
