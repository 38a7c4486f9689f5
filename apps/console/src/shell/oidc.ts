import * as oauth from 'oauth4webapi';
import type { OidcSettings } from './oidc-settings';

export const redirectUri = (): string => `${window.location.origin}/console/auth/callback`;

/** Plain http is allowed for a provider on this machine only (development and tests). */
function options(issuer: URL): { [oauth.allowInsecureRequests]: boolean } {
  return { [oauth.allowInsecureRequests]: issuer.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(issuer.hostname) };
}

async function discover(settings: OidcSettings): Promise<oauth.AuthorizationServer> {
  const issuer = new URL(settings.issuer);
  return oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, options(issuer)));
}

/** Sends the browser to the provider's sign-in, with a fresh PKCE challenge (S256) and state. */
/** The PKCE verifier and state of a sign-in under way: this tab only, removed when it ends. */
const PENDING = 'platform-console.oidc-pending';

export async function startOidcSignIn(settings: OidcSettings): Promise<void> {
  const as = await discover(settings);
  if (!as.authorization_endpoint) throw new Error('The identity provider has no authorization endpoint.');
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint);
  url.searchParams.set('client_id', settings.client_id);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('redirect_uri', redirectUri());
  url.searchParams.set('scope', settings.scope);
  url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(verifier));
  url.searchParams.set('code_challenge_method', 'S256');
  url.searchParams.set('state', state);
  if (settings.audience) url.searchParams.set('audience', settings.audience);
  sessionStorage.setItem(PENDING, JSON.stringify({ verifier, state }));
  window.location.assign(url.href);
}

/** On the way back: checks the state, exchanges the code with the PKCE verifier, returns the access token. */
export async function finishOidcSignIn(settings: OidcSettings, callback: URL): Promise<string> {
  const pending = JSON.parse(sessionStorage.getItem(PENDING) ?? 'null') as { verifier: string; state: string } | null;
  sessionStorage.removeItem(PENDING);
  if (!pending) throw new Error('No sign-in was started in this tab: start it again.');
  const as = await discover(settings);
  const client: oauth.Client = { client_id: settings.client_id };
  const parameters = oauth.validateAuthResponse(as, client, callback, pending.state);
  const issuer = new URL(settings.issuer);
  const response = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), parameters, redirectUri(), pending.verifier, options(issuer));
  const result = await oauth.processAuthorizationCodeResponse(as, client, response);
  return result.access_token;
}
