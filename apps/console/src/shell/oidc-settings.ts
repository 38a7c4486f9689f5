// Kept apart from oidc.ts: this part is in the first load, the flow (oauth4webapi, jose) is
// loaded only when someone signs in through the identity provider.
/** How the gateway says users may sign in (`/console/config.json`); null: API keys only. */
export interface OidcSettings {
  issuer: string;
  client_id: string;
  scope: string;
  audience: string | null;
}

export async function loadOidcSettings(): Promise<OidcSettings | null> {
  try {
    const res = await fetch('/console/config.json', { headers: { accept: 'application/json' } });
    if (!res.ok) return null;
    return ((await res.json()) as { oidc: OidcSettings | null }).oidc;
  } catch {
    return null; // an older gateway: sign-in with a key still works
  }
}
