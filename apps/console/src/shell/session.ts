import { createClient, type Me, type PlatformClient } from '@platform-sdk/client';

/**
 * The pasted API key lives in sessionStorage only: gone when the tab closes, never in
 * localStorage or a cookie. The CSP (no inline or foreign scripts) is what keeps it from other code.
 */
const STORAGE_KEY = 'platform-console.api-key';

export interface Session {
  client: PlatformClient;
  me: Me;
}

export function clientFor(apiKey: string): PlatformClient {
  // Same origin: the gateway serves the console and the API (connect-src 'self').
  return createClient({ baseUrl: window.location.origin, apiKey, retry: { maxRetries: 2 } });
}

export function storedKey(): string | null {
  return sessionStorage.getItem(STORAGE_KEY);
}

/** Checks the key against `GET /account/me` before keeping it. */
export async function signIn(apiKey: string): Promise<Session> {
  const client = clientFor(apiKey.trim());
  const me = await client.me();
  sessionStorage.setItem(STORAGE_KEY, apiKey.trim());
  return { client, me };
}

export function signOut(): void {
  sessionStorage.removeItem(STORAGE_KEY);
}
