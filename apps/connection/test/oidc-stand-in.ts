import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

export const CLIENT_ID = 'platform-connector';
export const CLIENT_SECRET = `client-secret-${Math.random().toString(36).slice(2)}`;

/**
 * A real OAuth 2.0 / OpenID provider (oidc-provider) on loopback: PKCE required, short-lived access
 * tokens, rotating refresh tokens (a refresh token used twice revokes the grant, as real providers
 * do), dev interactions for login and consent. It counts refresh grants and can be told to refuse them.
 */
export class OidcStandIn {
  issuer = '';
  refreshGrants = 0;
  refuseRefresh = false;
  private server!: Server;
  private provider!: Provider;

  async start(redirectUri: string, accessTokenTtlSeconds: number): Promise<void> {
    this.server = createServer();
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.issuer = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    // The provider announces its development defaults on the console; a test stand-in wants exactly those.
    const { warn, info } = console;
    console.warn = console.info = () => undefined;
    this.provider = new Provider(this.issuer, {
      clients: [
        {
          client_id: CLIENT_ID,
          client_secret: CLIENT_SECRET,
          redirect_uris: [redirectUri],
          grant_types: ['authorization_code', 'refresh_token', 'client_credentials'],
          response_types: ['code'],
          token_endpoint_auth_method: 'client_secret_post',
        },
      ],
      pkce: { required: () => true },
      scopes: ['openid', 'offline_access', 'api'],
      ttl: { AccessToken: accessTokenTtlSeconds, ClientCredentials: accessTokenTtlSeconds, Grant: 3600, Interaction: 600, Session: 3600, RefreshToken: 3600 },
      issueRefreshToken: () => Promise.resolve(true),
      rotateRefreshToken: () => true,
      features: { devInteractions: { enabled: true }, introspection: { enabled: true }, clientCredentials: { enabled: true } },
      cookies: { keys: ['oidc-stand-in-cookie-key'] },
      findAccount: (_ctx, id) => Promise.resolve({ accountId: id, claims: () => ({ sub: id }) }),
    });
    Object.assign(console, { warn, info });
    this.provider.on('grant.success', (ctx: { oidc: { params?: { grant_type?: unknown } } }) => {
      if (ctx.oidc.params?.grant_type === 'refresh_token') this.refreshGrants++;
    });
    const callback = this.provider.callback();
    this.server.on('request', (req, res) => {
      if (this.refuseRefresh && req.url === '/token') {
        res
          .writeHead(400, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: 'invalid_grant', error_description: 'grant request is invalid' }));
        return;
      }
      void callback(req, res);
    });
  }

  stop(): void {
    this.server?.close();
  }

  /** Logs in and consents in the provider's own pages as a browser would, and answers where it sends the browser back. */
  async authorize(authorizationUrl: string, account = 'user-1'): Promise<URL> {
    const jar = new Map<string, string>();
    let url = authorizationUrl;
    for (let hop = 0; hop < 20; hop++) {
      const res = await this.fetch(url, jar);
      const location = res.headers.get('location');
      if (location) {
        const next = new URL(location, url);
        if (!next.href.startsWith(this.issuer)) return next;
        url = next.href;
        continue;
      }
      const html = await res.text();
      const prompt = /name="prompt" value="(\w+)"/.exec(html)?.[1];
      if (!prompt) throw new Error(`unexpected provider page (${res.status}): ${html.slice(0, 300)}`);
      const body = new URLSearchParams({ prompt, ...(prompt === 'login' ? { login: account, password: 'x' } : {}) });
      const posted = await this.fetch(url, jar, body);
      const after = posted.headers.get('location');
      if (!after) throw new Error(`the ${prompt} form did not redirect (${posted.status}): ${(await posted.text()).slice(0, 300)}`);
      url = new URL(after, url).href;
    }
    throw new Error('too many redirects in the authorization flow');
  }

  async introspect(token: string): Promise<{ active: boolean; client_id?: string }> {
    const res = await fetch(`${this.issuer}/token/introspection`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token, client_id: CLIENT_ID, client_secret: CLIENT_SECRET }),
    });
    return (await res.json()) as { active: boolean; client_id?: string };
  }

  private async fetch(url: string, jar: Map<string, string>, form?: URLSearchParams): Promise<Response> {
    const cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await fetch(url, {
      method: form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: { ...(cookie ? { cookie } : {}), ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
      body: form,
    });
    for (const set of res.headers.getSetCookie()) {
      const [pair] = set.split(';');
      const at = pair.indexOf('=');
      jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
    return res;
  }
}
