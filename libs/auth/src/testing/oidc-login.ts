import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * The sign-in half of the test identity provider: the authorization code flow with PKCE (S256)
 * as a browser meets it. `GET /authorize` shows a login page where the test types who signs in
 * (email and tenants); its form posts back, and the browser is sent to `redirect_uri` with a
 * one-time code; `POST /token` exchanges the code and the PKCE verifier for an access token that
 * the JWKS vouches for. Only for tests: nobody is authenticated, the page believes what it is told.
 */
export interface OidcLogin {
  /** Handles the request if it is one of the login routes; false otherwise. */
  handle(request: IncomingMessage, response: ServerResponse): boolean;
  discovery(url: string): Record<string, unknown>;
}

interface PendingCode {
  clientId: string;
  redirectUri: string;
  challenge: string;
  claims: Record<string, unknown>;
  audience: string | undefined;
  expires: number;
}

const CODE_LIFETIME_MS = 60_000;
const CORS = { 'access-control-allow-origin': '*', 'access-control-allow-headers': '*', 'access-control-allow-methods': 'GET, POST' };

export function oidcLogin(sign: (claims: Record<string, unknown>, audience: string | undefined) => Promise<string>): OidcLogin {
  const codes = new Map<string, PendingCode>();

  const loginPage = (query: URLSearchParams, response: ServerResponse): void => {
    const hidden = [...query].map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`).join('');
    const html = `<!doctype html><html lang="en"><head><title>Test identity provider</title></head><body><main>
      <h1>Test identity provider</h1><form method="post" action="/authorize">${hidden}
      <label for="email">Email</label><input id="email" name="login_email" value="user@idp.test">
      <label for="tenants">Tenants</label><input id="tenants" name="login_tenants" placeholder="tenant ids, comma-separated">
      <button type="submit">Sign in to the provider</button></form></main></body></html>`;
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(html);
  };

  const approve = (form: URLSearchParams, response: ServerResponse): void => {
    const redirectUri = form.get('redirect_uri');
    const clientId = form.get('client_id');
    const challenge = form.get('code_challenge');
    if (!redirectUri || !clientId || !challenge || form.get('code_challenge_method') !== 'S256' || form.get('response_type') !== 'code') {
      return sendJson(response, 400, {
        error: 'invalid_request',
        error_description: 'client_id, redirect_uri, response_type=code and an S256 code_challenge are required',
      });
    }
    const email = form.get('login_email') ?? '';
    const tenants = (form.get('login_tenants') ?? '')
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean);
    const code = randomBytes(24).toString('base64url');
    codes.set(code, {
      clientId,
      redirectUri,
      challenge,
      audience: form.get('audience') ?? undefined,
      expires: Date.now() + CODE_LIFETIME_MS,
      claims: { sub: `user-${createHash('sha256').update(email).digest('hex').slice(0, 16)}`, email, tenants, authorized_tenants: tenants },
    });
    const back = new URL(redirectUri);
    back.searchParams.set('code', code);
    const state = form.get('state');
    if (state !== null) back.searchParams.set('state', state);
    response.writeHead(302, { location: back.href }).end();
  };

  const token = async (form: URLSearchParams, response: ServerResponse): Promise<void> => {
    const code = form.get('code') ?? '';
    const pending = codes.get(code);
    codes.delete(code); // one use, whatever happens next
    const verifier = form.get('code_verifier') ?? '';
    const valid =
      form.get('grant_type') === 'authorization_code' &&
      pending !== undefined &&
      pending.expires > Date.now() &&
      pending.clientId === form.get('client_id') &&
      pending.redirectUri === form.get('redirect_uri') &&
      createHash('sha256').update(verifier).digest('base64url') === pending.challenge;
    if (!valid) return sendJson(response, 400, { error: 'invalid_grant' }, CORS);
    const accessToken = await sign(pending.claims, pending.audience);
    sendJson(response, 200, { access_token: accessToken, token_type: 'Bearer', expires_in: 300 }, { ...CORS, 'cache-control': 'no-store' });
  };

  return {
    discovery: (url) => ({
      authorization_endpoint: `${url}/authorize`,
      token_endpoint: `${url}/token`,
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none'],
    }),
    handle(request, response) {
      const url = new URL(request.url ?? '/', 'http://localhost');
      if (url.pathname === '/authorize' && request.method === 'GET') {
        loginPage(url.searchParams, response);
        return true;
      }
      if ((url.pathname === '/authorize' || url.pathname === '/token') && request.method === 'OPTIONS') {
        response.writeHead(204, CORS).end();
        return true;
      }
      if ((url.pathname === '/authorize' || url.pathname === '/token') && request.method === 'POST') {
        readForm(request)
          .then((form) => (url.pathname === '/token' ? token(form, response) : approve(form, response)))
          .catch(() => sendJson(response, 400, { error: 'invalid_request' }, CORS));
        return true;
      }
      return false;
    },
  };
}

async function readForm(request: IncomingMessage): Promise<URLSearchParams> {
  let raw = '';
  for await (const chunk of request) raw += String(chunk);
  return new URLSearchParams(raw);
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers }).end(text);
}
