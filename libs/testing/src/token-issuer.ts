import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startJwksServer, type JwksServer, type JwksSignOptions } from '@platform/auth';

export type TokenKind = 'valid' | 'foreign' | 'unsigned';

export interface TokenIssuer {
  jwks: JwksServer;
  /** POST { kind, claims, options } → { token }: lets test workers mint tokens for the JWKS the platform trusts. */
  signUrl: string;
  close(): Promise<void>;
}

async function body(req: IncomingMessage): Promise<{ kind: TokenKind; claims: Record<string, unknown>; options?: JwksSignOptions }> {
  let raw = '';
  for await (const chunk of req) raw += chunk;
  return JSON.parse(raw) as { kind: TokenKind; claims: Record<string, unknown>; options?: JwksSignOptions };
}

/**
 * The identity provider of an e2e run: the JWKS the services verify against, and a signing
 * endpoint on loopback, because the private keys live in the process that started the platform.
 */
export async function startTokenIssuer(): Promise<TokenIssuer> {
  const jwks = await startJwksServer();
  const server = createServer((req, res) => {
    body(req)
      .then(async ({ kind, claims, options }) => {
        const token =
          kind === 'foreign'
            ? await jwks.signWithForeignKey(claims, options)
            : kind === 'unsigned'
              ? jwks.unsignedToken(claims)
              : await jwks.sign(claims, options);
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ token }));
      })
      .catch((error: unknown) => res.writeHead(400).end(String(error)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    jwks,
    signUrl: `http://127.0.0.1:${port}/sign`,
    close: async () => {
      await new Promise((resolve) => server.close(resolve));
      await jwks.close();
    },
  };
}

/** From a test worker: a token of the given kind from the run's identity provider. */
export async function issueToken(signUrl: string, claims: Record<string, unknown>, options: JwksSignOptions = {}, kind: TokenKind = 'valid'): Promise<string> {
  const res = await fetch(signUrl, { method: 'POST', body: JSON.stringify({ kind, claims, options }) });
  if (!res.ok) throw new Error(`token issuer: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}
