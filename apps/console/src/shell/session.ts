import { createClient, type Me, type PlatformClient } from '@platform-sdk/client';
import { authorizedTenants } from './token-tenants';

/**
 * The credential lives in sessionStorage only: gone when the tab closes, never in localStorage or
 * a cookie. The CSP (no inline or foreign scripts) is what keeps it from other code. It is a
 * pasted API key, or a user's access token from the identity provider with the tenant picked.
 */
const KEY = 'platform-console.api-key';
const TOKEN = 'platform-console.token';
const TENANT = 'platform-console.tenant';

export type Credential = { apiKey: string } | { token: string; tenant: string };

export interface Session {
  client: PlatformClient;
  me: Me;
  credential: Credential;
  /** The tenants a user's token authorizes (the header offers a switch when there are several); none with a key. */
  tenants: string[];
}

export function clientFor(credential: Credential): PlatformClient {
  // Same origin: the gateway serves the console and the API (connect-src 'self').
  return createClient({ baseUrl: window.location.origin, ...credential, retry: { maxRetries: 2 } });
}

export function storedCredential(): Credential | null {
  const apiKey = sessionStorage.getItem(KEY);
  if (apiKey) return { apiKey };
  const token = sessionStorage.getItem(TOKEN);
  const tenant = sessionStorage.getItem(TENANT);
  return token && tenant ? { token, tenant } : null;
}

/** Checks the credential against `GET /account/me` before keeping it. */
export async function signIn(credential: Credential): Promise<Session> {
  const clean: Credential = 'apiKey' in credential ? { apiKey: credential.apiKey.trim() } : credential;
  const client = clientFor(clean);
  const me = await client.me();
  signOut();
  if ('apiKey' in clean) sessionStorage.setItem(KEY, clean.apiKey);
  else {
    sessionStorage.setItem(TOKEN, clean.token);
    sessionStorage.setItem(TENANT, clean.tenant);
  }
  return { client, me, credential: clean, tenants: 'token' in clean ? authorizedTenants(clean.token) : [] };
}

/**
 * The same user in another of the token's tenants, without signing in again: checked with
 * `GET /account/me` under the new `X-SELECTED-TENANT` first, so a refused switch keeps the
 * session as it was (storage included).
 */
export async function switchTenant(session: Session, tenant: string): Promise<Session> {
  if (!('token' in session.credential)) throw new Error('Only a single sign-on session can switch tenant.');
  return signIn({ token: session.credential.token, tenant });
}

export function signOut(): void {
  for (const name of [KEY, TOKEN, TENANT]) sessionStorage.removeItem(name);
}
