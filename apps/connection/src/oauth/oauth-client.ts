import { Injectable } from '@nestjs/common';
import * as oauth from 'oauth4webapi';
import { AppError, SecretRedactor } from '@platform/common';
import type { AuthSettings } from '../connections/connection.record.js';
import { Outbound } from '../outbound/outbound.js';

export interface TokenSet {
  access_token: string;
  refresh_token?: string;
  /** Absolute expiry; null when the provider gives none. */
  expires_at: Date | null;
}

/** The provider refused the grant (revoked, expired or rotated refresh token, bad client): the user must authorize again. */
export class GrantRefused extends Error {}

/**
 * OAuth 2.0 with oauth4webapi (no hand-written protocol): PKCE, the authorization code exchange,
 * refresh and client credentials. Every request goes through Outbound (same SSRF rules as the
 * operations); plain http endpoints are accepted only where private networks are (tests).
 */
@Injectable()
export class OAuthClient {
  constructor(private readonly outbound: Outbound) {}

  verifier(): string {
    return oauth.generateRandomCodeVerifier();
  }

  async authorizationUrl(settings: AuthSettings, p: { redirectUri: string; state: string; verifier: string }): Promise<string> {
    if (!settings.authorization_url) throw new AppError('oauth_misconfigured', 400, 'The connection has no authorization_url');
    const url = new URL(settings.authorization_url);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('client_id', settings.client_id ?? '');
    url.searchParams.set('redirect_uri', p.redirectUri);
    if (settings.scopes?.length) url.searchParams.set('scope', settings.scopes.join(' '));
    url.searchParams.set('state', p.state);
    url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(p.verifier));
    url.searchParams.set('code_challenge_method', 'S256');
    return url.href;
  }

  /** Checks the callback's parameters (state, error) and exchanges the code, with the PKCE verifier. */
  async exchangeCode(
    settings: AuthSettings,
    secret: string | undefined,
    p: { callback: URLSearchParams; state: string; redirectUri: string; verifier: string },
  ): Promise<TokenSet> {
    const as = this.server(settings);
    const client: oauth.Client = { client_id: settings.client_id ?? '' };
    const params = new URLSearchParams(p.callback);
    if (!settings.issuer) params.delete('iss');
    let checked: URLSearchParams;
    try {
      checked = oauth.validateAuthResponse(as, client, params, p.state);
    } catch (error) {
      if (error instanceof oauth.AuthorizationResponseError)
        throw new GrantRefused(`${error.error}${error.error_description ? `: ${error.error_description}` : ''}`);
      throw new GrantRefused((error as Error).message);
    }
    return this.grant(
      [secret],
      () => oauth.authorizationCodeGrantRequest(as, client, this.auth(secret), checked, p.redirectUri, p.verifier, this.options()),
      (r) => oauth.processAuthorizationCodeResponse(as, client, r, { requireIdToken: false }),
    );
  }

  refresh(settings: AuthSettings, secret: string | undefined, refreshToken: string): Promise<TokenSet> {
    const as = this.server(settings);
    const client: oauth.Client = { client_id: settings.client_id ?? '' };
    return this.grant(
      [secret, refreshToken],
      () => oauth.refreshTokenGrantRequest(as, client, this.auth(secret), refreshToken, this.options()),
      (r) => oauth.processRefreshTokenResponse(as, client, r),
    );
  }

  clientCredentials(settings: AuthSettings, secret: string | undefined): Promise<TokenSet> {
    const as = this.server(settings);
    const client: oauth.Client = { client_id: settings.client_id ?? '' };
    const params = new URLSearchParams();
    if (settings.scopes?.length) params.set('scope', settings.scopes.join(' '));
    return this.grant(
      [secret],
      () => oauth.clientCredentialsGrantRequest(as, client, this.auth(secret), params, this.options()),
      (r) => oauth.processClientCredentialsResponse(as, client, r),
    );
  }

  /**
   * One token request with `secrets` (the client secret, the refresh token) in play: the reason a
   * refusal gives is kept on the connection and shown, so what the provider echoes of them is
   * redacted first.
   */
  private async grant(
    secrets: (string | undefined)[],
    request: () => Promise<Response>,
    process: (r: Response) => Promise<oauth.TokenEndpointResponse>,
  ): Promise<TokenSet> {
    let response: oauth.TokenEndpointResponse;
    try {
      response = await process(await request());
    } catch (error) {
      throw new SecretRedactor(secrets).error(refusal(error));
    }
    return {
      access_token: response.access_token,
      refresh_token: response.refresh_token,
      expires_at: typeof response.expires_in === 'number' ? new Date(Date.now() + response.expires_in * 1000) : null,
    };
  }

  private server(settings: AuthSettings): oauth.AuthorizationServer {
    if (!settings.token_url) throw new AppError('oauth_misconfigured', 400, 'The connection has no token_url');
    return {
      issuer: settings.issuer ?? new URL(settings.token_url).origin,
      authorization_endpoint: settings.authorization_url,
      token_endpoint: settings.token_url,
    };
  }

  private auth(secret: string | undefined): oauth.ClientAuth {
    return secret ? oauth.ClientSecretPost(secret) : oauth.None();
  }

  private options(): oauth.TokenEndpointRequestOptions {
    return { [oauth.customFetch]: this.outbound.fetch, [oauth.allowInsecureRequests]: this.outbound.allowPrivate };
  }
}

function refusal(error: unknown): Error {
  if (error instanceof AppError) return error;
  if (error instanceof oauth.ResponseBodyError) {
    if (error.status >= 500) return new AppError('oauth_provider_unavailable', 502, `The token endpoint answered ${error.status}`);
    return new GrantRefused(`${error.error}${error.error_description ? `: ${error.error_description}` : ''}`);
  }
  return new GrantRefused(`the token response was refused: ${(error as Error).message}`);
}
