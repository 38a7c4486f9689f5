import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { freePort, serviceEntry, sleep, startProcess, type ManagedProcess, type TestTenant } from '@platform/testing';
import { PrivatePlatform, type Json } from './private-platform.js';
import { CLIENT_ID, CLIENT_SECRET, OidcStandIn } from './oidc-stand-in.js';

const TOKEN_TTL_SECONDS = 3;
const p = new PrivatePlatform();
const provider = new OidcStandIn();
let api: Server;
let apiBase = '';
const seen: string[] = [];
/** The API refuses this access token (revoked early, as a provider may do). */
let rejectToken: string | undefined;
let tenant: TestTenant;
let second: ManagedProcess | undefined;

const authorizedConnection = async (): Promise<string> => {
  const made = await p.gw('/connections', {
    headers: p.as(tenant.test_key),
    body: {
      name: 'provider api',
      connector_id: 'http',
      settings: { base_url: apiBase },
      auth: {
        type: 'oauth2_code',
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
        authorization_url: `${provider.issuer}/auth`,
        token_url: `${provider.issuer}/token`,
        scopes: ['api'],
        issuer: provider.issuer,
      },
    },
  });
  expect(made.body).toMatchObject({ status: 'pending_authorization', credentials: ['client_secret'] });
  const id = made.body.id as string;
  const started = await p.gw('/connections/oauth/start', {
    headers: p.as(tenant.test_key),
    body: { connection_id: id, redirect_uri: `${p.platform.gatewayUrl}/connections/oauth/callback` },
  });
  expect(started.status).toBe(200);
  const back = await provider.authorize(started.body.authorization_url as string);
  const done = await p.gw(`${back.pathname}${back.search}`);
  expect(done.body).toEqual({ ok: true, connection_id: id, message: 'The connection is authorized' });
  // The state is single use.
  expect((await p.gw(`${back.pathname}${back.search}`)).status).toBe(400);
  return id;
};

const callApi = (connectionId: string) => [
  { id: 'me', type: 'connector', input: { connection_id: connectionId, operation: 'request', params: { path: '/me' } } },
];

beforeAll(async () => {
  api = createServer((req, res) => {
    seen.push(req.headers.authorization ?? '');
    if (rejectToken && req.headers.authorization === `Bearer ${rejectToken}`) {
      res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'invalid_token' }));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ hello: 'from the api' }));
  });
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
  apiBase = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
  await p.start('oauth', { CONNECTION_REFRESH_MARGIN_SECONDS: '1' });
  await provider.start(`${p.platform.gatewayUrl}/connections/oauth/callback`, TOKEN_TTL_SECONDS);
  tenant = await p.tenant('oauth');
  // A second connection worker: operations are shared between both by the NATS queue group.
  const port = await freePort();
  second = await startProcess({
    name: 'connection-2',
    entry: serviceEntry('connection'),
    env: { ...p.platform.serviceEnv.connection, PORT: String(port) },
    healthUrl: `http://127.0.0.1:${port}/actuator/health`,
    onLine: (line) => p.lines.push(`connection-2: ${line}`),
  });
}, 120_000);

afterAll(async () => {
  await second?.stop();
  await p.stop();
  provider.stop();
  api?.close();
});

describe('OAuth 2.0 authorization code with PKCE', () => {
  let id: string;

  it('refuses to run before authorization, then authorizes through the provider with PKCE and stores the tokens sealed', async () => {
    const made = await p.gw('/connections', {
      headers: p.as(tenant.test_key),
      body: {
        name: 'pending',
        connector_id: 'http',
        settings: { base_url: apiBase },
        auth: { type: 'oauth2_code', client_id: CLIENT_ID, authorization_url: `${provider.issuer}/auth`, token_url: `${provider.issuer}/token` },
      },
    });
    const pending = await p.run(tenant, await p.workflow(tenant, callApi(made.body.id as string)));
    expect([pending.status, (pending.error as Json).code]).toEqual(['failed', 'connection_pending_authorization']);

    const start = await p.gw('/connections/oauth/start', {
      headers: p.as(tenant.test_key),
      body: { connection_id: made.body.id, redirect_uri: `${p.platform.gatewayUrl}/connections/oauth/callback` },
    });
    const url = new URL(start.body.authorization_url as string);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);

    id = await authorizedConnection();
    const connection = (await p.gw(`/connections/${id}`, { headers: p.as(tenant.test_key) })).body;
    expect(connection).toMatchObject({
      status: 'active',
      credentials: ['access_token', 'client_secret', 'refresh_token'],
      token_expires_at: expect.any(String),
    });

    const run = await p.run(tenant, await p.workflow(tenant, callApi(id)));
    expect(run).toMatchObject({ status: 'succeeded', output: { status: 200, data: { hello: 'from the api' } } });
    const token = seen.at(-1)!.replace('Bearer ', '');
    expect(await provider.introspect(token)).toMatchObject({ active: true, client_id: CLIENT_ID });
  });

  it('refreshes an expiring token before use, once', async () => {
    const before = seen.at(-1);
    const grants = provider.refreshGrants;
    await sleep(TOKEN_TTL_SECONDS * 1000);
    const run = await p.run(tenant, await p.workflow(tenant, callApi(id)));
    expect(run.status).toBe('succeeded');
    expect(seen.at(-1)).not.toBe(before);
    expect(await provider.introspect(seen.at(-1)!.replace('Bearer ', ''))).toMatchObject({ active: true });
    expect(provider.refreshGrants).toBe(grants + 1);
  });

  it('lets only one of two workers refresh when many operations race for an expired token', async () => {
    await sleep(TOKEN_TTL_SECONDS * 1000);
    const grants = provider.refreshGrants;
    const wf = await p.workflow(tenant, callApi(id));
    const count = seen.length;
    const lines = p.lines.length;
    const runs = await Promise.all(Array.from({ length: 12 }, () => p.run(tenant, wf)));
    expect(runs.map((r) => r.status)).toEqual(runs.map(() => 'succeeded'));
    // With rotating refresh tokens a second refresh would have revoked the grant: one refresh, one new token for all.
    expect(provider.refreshGrants).toBe(grants + 1);
    expect(new Set(seen.slice(count)).size).toBe(1);
    // Both workers served operations of the race (each logs the operations it runs at debug level).
    const served = p.lines.slice(lines).filter((l) => l.includes(`http.request on connection ${id}`));
    expect(new Set(served.map((l) => l.split(':')[0]))).toEqual(new Set(['connection', 'connection-2']));
    expect((await p.gw(`/connections/${id}`, { headers: p.as(tenant.test_key) })).body.status).toBe('active');
  });

  it('replaces a token the API refuses before its expiry, once, and tries again', async () => {
    const wf = await p.workflow(tenant, callApi(id));
    await sleep(TOKEN_TTL_SECONDS * 1000);
    expect((await p.run(tenant, wf)).status).toBe('succeeded'); // refreshed: a token with time left
    rejectToken = seen.at(-1)!.replace('Bearer ', '');
    try {
      const grants = provider.refreshGrants;
      const count = seen.length;
      const run = await p.run(tenant, wf);
      expect(run).toMatchObject({ status: 'succeeded', output: { status: 200 } });
      expect(seen.slice(count).map((s) => s === `Bearer ${rejectToken}`)).toEqual([true, false]);
      expect(provider.refreshGrants).toBe(grants + 1);
    } finally {
      rejectToken = undefined;
    }
  });

  it('marks the connection needs_reauth when the provider refuses the refresh, and says so in runs', async () => {
    provider.refuseRefresh = true;
    try {
      await sleep(TOKEN_TTL_SECONDS * 1000);
      const run = await p.run(tenant, await p.workflow(tenant, callApi(id)));
      expect([run.status, (run.error as Json).code]).toEqual(['failed', 'connection_needs_reauth']);
      expect((run.error as Json).message).toContain('invalid_grant');
      const connection = (await p.gw(`/connections/${id}`, { headers: p.as(tenant.test_key) })).body;
      expect(connection).toMatchObject({ status: 'needs_reauth', status_reason: expect.stringContaining('invalid_grant') });
    } finally {
      provider.refuseRefresh = false;
    }
    // Authorizing again brings it back.
    const again = await p.gw('/connections/oauth/start', {
      headers: p.as(tenant.test_key),
      body: { connection_id: id, redirect_uri: `${p.platform.gatewayUrl}/connections/oauth/callback` },
    });
    const back = await provider.authorize(again.body.authorization_url as string);
    expect((await p.gw(`${back.pathname}${back.search}`)).body).toMatchObject({ ok: true });
    expect((await p.run(tenant, await p.workflow(tenant, callApi(id)))).status).toBe('succeeded');
  });

  it('refuses a forged or unknown state', async () => {
    const forged = Buffer.from(`${tenant.tenant_id}.${tenant.sandbox_data_plane_id}.01937c2e-6a55-4cc1-9a3e-1f2a3b4c5d6e`).toString('base64url');
    expect((await p.gw(`/connections/oauth/callback?code=abc&state=${forged}`)).status).toBe(400);
    expect((await p.gw('/connections/oauth/callback?code=abc&state=garbage')).status).toBe(400);
  });
});

describe('OAuth 2.0 client credentials', () => {
  it('gets a token from the provider and uses it', async () => {
    const made = await p.gw('/connections', {
      headers: p.as(tenant.test_key),
      body: {
        name: 'machine',
        connector_id: 'http',
        settings: { base_url: apiBase },
        auth: { type: 'oauth2_client_credentials', client_id: CLIENT_ID, client_secret: CLIENT_SECRET, token_url: `${provider.issuer}/token`, scopes: ['api'] },
      },
    });
    expect(made.body).toMatchObject({ status: 'active', credentials: ['client_secret'] });
    const run = await p.run(tenant, await p.workflow(tenant, callApi(made.body.id as string)));
    expect(run.status).toBe('succeeded');
    expect(await provider.introspect(seen.at(-1)!.replace('Bearer ', ''))).toMatchObject({ active: true, client_id: CLIENT_ID });
  });
});

describe('tokens', () => {
  it('never appear in any response or log line', () => {
    const tokens = [...new Set(seen.map((s) => s.replace('Bearer ', '')))].filter(Boolean);
    expect(tokens.length).toBeGreaterThan(2);
    expect(p.leaks([...tokens, CLIENT_SECRET])).toEqual([]);
  });
});
