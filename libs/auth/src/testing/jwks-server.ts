import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { oidcLogin } from './oidc-login.js';
import { exportJWK, generateKeyPair, SignJWT, UnsecuredJWT, type CryptoKey, type JWK } from 'jose';

export type JwksSigningAlgorithm = 'RS256' | 'ES256';

export interface JwksSignOptions {
  /** Default RS256. */
  alg?: JwksSigningAlgorithm;
  /** Seconds from now (negative: already expired), or a jose time span ('5m', '-1h', '2 hours ago'). Default 5 minutes. */
  expiresIn?: string | number;
  /** `iat` in Unix seconds; default now. */
  issuedAt?: number;
  /** Default the server's issuer. */
  issuer?: string;
  audience?: string | string[];
  /** Header `kid`; default the kid of the signing key in the JWKS. */
  kid?: string;
}

/**
 * A local identity provider for tests: OIDC discovery, a JWKS and a sign-in (authorization code with
 * PKCE, see oidc-login.ts) over real HTTP, and the private
 * keys to sign tokens it vouches for, plus the usual forgeries.
 */
export interface JwksServer {
  /** Base URL, `http://127.0.0.1:<port>`, no trailing slash. */
  url: string;
  /** The issuer in the discovery document and the default `iss` of signed tokens. */
  issuer: string;
  jwksUrl: string;
  /**
   * A token signed by a key in the JWKS. `iss`, `iat` and `exp` are filled in unless `claims`
   * has them; a claim given as `undefined` is left out (to test a missing `exp`, say). Options
   * override both.
   */
  sign(claims: Record<string, unknown>, options?: JwksSignOptions): Promise<string>;
  /** Like `sign`, with the same header (kid included) but a key that is NOT in the JWKS. */
  signWithForeignKey(claims: Record<string, unknown>, options?: JwksSignOptions): Promise<string>;
  /** The same claims as `sign`, with `alg: none` and no signature. */
  unsignedToken(claims: Record<string, unknown>): string;
  close(): Promise<void>;
}

interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
}

const ALGORITHMS: readonly JwksSigningAlgorithm[] = ['RS256', 'ES256'];
const DEFAULT_LIFETIME_SECONDS = 5 * 60;

export async function startJwksServer(options: { issuer?: string } = {}): Promise<JwksServer> {
  const keys = new Map<JwksSigningAlgorithm, SigningKey>();
  const foreignKeys = new Map<JwksSigningAlgorithm, CryptoKey>();
  for (const alg of ALGORITHMS) {
    const kid = `${alg.toLowerCase()}-${randomBytes(6).toString('hex')}`;
    const pair = await generateKeyPair(alg, { extractable: true });
    keys.set(alg, { kid, privateKey: pair.privateKey, publicJwk: { ...(await exportJWK(pair.publicKey)), kid, alg, use: 'sig' } });
    foreignKeys.set(alg, (await generateKeyPair(alg)).privateKey);
  }
  const jwks = { keys: [...keys.values()].map((key) => key.publicJwk) };

  let discovery: Record<string, unknown> = { issuer: '', jwks_uri: '' };
  // Bound once the keys and issuer are known (below); the login routes sign with them.
  let signForLogin: (claims: Record<string, unknown>, audience: string | undefined) => Promise<string> = () => Promise.reject(new Error('not ready'));
  const login = oidcLogin((claims, audience) => signForLogin(claims, audience));
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    if (login.handle(request, response)) return;
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    // Readable from a browser page (the console's single sign-on fetches it), as a real provider's is.
    if (request.method === 'GET' && path === '/.well-known/openid-configuration')
      return sendJson(response, 200, discovery, { 'access-control-allow-origin': '*' });
    if (request.method === 'GET' && path === '/jwks.json') return sendJson(response, 200, jwks);
    sendJson(response, 404, { error: 'not_found' });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const issuer = options.issuer ?? url;
  const jwksUrl = `${url}/jwks.json`;
  discovery = { issuer, jwks_uri: jwksUrl, ...login.discovery(url) };

  const payloadFor = (claims: Record<string, unknown>, signOptions: JwksSignOptions = {}): Record<string, unknown> => {
    const now = Math.floor(Date.now() / 1000);
    const payload: Record<string, unknown> = { iss: issuer, iat: now, exp: now + DEFAULT_LIFETIME_SECONDS, ...claims };
    if (signOptions.issuedAt !== undefined) payload.iat = signOptions.issuedAt;
    if (typeof signOptions.expiresIn === 'number') payload.exp = now + signOptions.expiresIn;
    if (signOptions.issuer !== undefined) payload.iss = signOptions.issuer;
    if (signOptions.audience !== undefined) payload.aud = signOptions.audience;
    // JSON drops undefined members, but say so explicitly: this is how a test leaves a claim out.
    return Object.fromEntries(Object.entries(payload).filter(([, value]) => value !== undefined));
  };

  const signWith = (privateKey: CryptoKey, kid: string, alg: JwksSigningAlgorithm, claims: Record<string, unknown>, signOptions: JwksSignOptions = {}) => {
    const jwt = new SignJWT(payloadFor(claims, signOptions)).setProtectedHeader({ alg, kid: signOptions.kid ?? kid, typ: 'JWT' });
    if (typeof signOptions.expiresIn === 'string') jwt.setExpirationTime(signOptions.expiresIn);
    return jwt.sign(privateKey);
  };

  const keyFor = (alg: JwksSigningAlgorithm = 'RS256'): SigningKey => {
    const key = keys.get(alg);
    if (!key) throw new Error(`startJwksServer: no ${String(alg)} key; use one of ${ALGORITHMS.join(', ')}`);
    return key;
  };

  signForLogin = (claims, audience) => {
    const key = keyFor('RS256');
    return signWith(key.privateKey, key.kid, 'RS256', claims, { audience, expiresIn: 300 });
  };

  return {
    url,
    issuer,
    jwksUrl,
    sign(claims, signOptions = {}) {
      const key = keyFor(signOptions.alg);
      return signWith(key.privateKey, key.kid, signOptions.alg ?? 'RS256', claims, signOptions);
    },
    signWithForeignKey(claims, signOptions = {}) {
      const alg = signOptions.alg ?? 'RS256';
      return signWith(foreignKeys.get(alg) as CryptoKey, keyFor(alg).kid, alg, claims, signOptions);
    },
    unsignedToken(claims) {
      return new UnsecuredJWT(payloadFor(claims)).encode();
    },
    close() {
      return new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // Keep-alive connections from fetch would otherwise hold close() open.
        server.closeAllConnections();
      });
    },
  };
}

function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  response.end(text);
}
