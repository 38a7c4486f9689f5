import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SERVICE_NAMES, createLogger, type ServiceName } from '@platform/common';
import { loadGatewayConfig } from '../config/gateway.config.js';
import { createGatewayApp } from '../gateway.app.js';
import { ASSET_CACHE, CONSOLE_CSP } from './console.routes.js';

const listen = (server: Server): Promise<string> =>
  new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));

/**
 * The whole gateway (no Redis, no NATS: limits and quotas off) in front of one stand-in service
 * that echoes what reached it, with a console build made of two files in a temporary folder.
 */
describe('the console at /console', () => {
  const dir = mkdtempSync(join(tmpdir(), 'console-'));
  let gateway: Server;
  let upstream: Server;
  let close: () => void;
  let base: string;

  beforeAll(async () => {
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><script type="module" src="/console/assets/index-abc123.js"></script>');
    writeFileSync(join(dir, 'assets/index-abc123.js'), 'console.log(1)');
    upstream = createServer((req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ reached: req.url })));
    const upstreamUrl = new URL(await listen(upstream));
    const upstreams = Object.fromEntries(SERVICE_NAMES.map((name) => [name, upstreamUrl])) as Record<ServiceName, URL>;
    const config = loadGatewayConfig({ RATE_LIMIT_ENABLED: 'false', QUOTAS_ENABLED: 'false', PLAN_LIMITS_ENABLED: 'false', CONSOLE_DIR: dir });
    const app = createGatewayApp({ config, upstreams, logger: createLogger('gateway', 'silent') });
    close = app.close;
    gateway = createServer(app.handle);
    base = await listen(gateway);
  });

  afterAll(async () => {
    close();
    await Promise.all([new Promise((r) => gateway.close(r)), new Promise((r) => upstream.close(r))]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves index.html, never cached, under a CSP without inline scripts', async () => {
    const res = await fetch(`${base}/console`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toBe(CONSOLE_CSP);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toMatch(/script-src 'self'(;|$)/);
    expect(csp).not.toContain('unsafe-inline');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await res.text()).toContain('/console/assets/index-abc123.js');
  });

  it.each(['/console/', '/console/executions/8d2c', '/console/workflows/new?x=1', '/console/keys'])('answers the deep link %s with the app', async (path) => {
    const res = await fetch(`${base}${path}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(await res.text()).toContain('<!doctype html>');
  });

  it('caches hashed assets for a year, immutable', async () => {
    const res = await fetch(`${base}/console/assets/index-abc123.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/javascript/);
    expect(res.headers.get('cache-control')).toBe(ASSET_CACHE);
    expect(ASSET_CACHE).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('content-security-policy')).toBe(CONSOLE_CSP);
  });

  it('answers a missing asset with 404 in the error shape, not with the page', async () => {
    for (const path of ['/console/assets/gone-123.js', '/console/assets/']) {
      const res = await fetch(`${base}${path}`);
      expect(res.status).toBe(404);
      expect(res.headers.get('cache-control')).not.toBe(ASSET_CACHE);
    }
  });

  it('tells the console it signs in with API keys only when no identity provider is set', async () => {
    const res = await fetch(`${base}/console/config.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(await res.json()).toEqual({ oidc: null });
  });

  it('leaves the other routes as they were', async () => {
    const proxied = await fetch(`${base}/run/workflows?limit=1`);
    expect(await proxied.json()).toEqual({ reached: '/run/workflows?limit=1' });
    expect(proxied.headers.get('content-security-policy')).toBeNull();
    const long = await fetch(`${base}/api/v1/workflow/run/executions`);
    expect(await long.json()).toEqual({ reached: '/run/executions' });
    const liveness = await fetch(`${base}/actuator/health/liveness`);
    expect(await liveness.json()).toEqual({ status: 'UP' });
    const unknown = await fetch(`${base}/consoles`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ code: 'not_found', status: 404 });
    expect(unknown.headers.get('content-security-policy')).toBeNull();
  });
});

describe('the console before its first build', () => {
  it('says how to build it', async () => {
    const config = loadGatewayConfig({ RATE_LIMIT_ENABLED: 'false', QUOTAS_ENABLED: 'false', CONSOLE_DIR: join(tmpdir(), 'no-console-here') });
    const upstreams = Object.fromEntries(SERVICE_NAMES.map((name) => [name, new URL('http://127.0.0.1:9')])) as Record<ServiceName, URL>;
    const app = createGatewayApp({ config, upstreams, logger: createLogger('gateway', 'silent') });
    const server = createServer(app.handle);
    try {
      const res = await fetch(`${await listen(server)}/console/tasks`);
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({ message: expect.stringContaining('npm run build') });
    } finally {
      app.close();
      await new Promise((r) => server.close(r));
    }
  });
});

describe('the console with an identity provider', () => {
  it('hands the browser the provider, never a secret, and lets it reach only that origin besides its own', async () => {
    const config = loadGatewayConfig({
      RATE_LIMIT_ENABLED: 'false',
      QUOTAS_ENABLED: 'false',
      PLAN_LIMITS_ENABLED: 'false',
      CONSOLE_DIR: join(tmpdir(), 'no-console-here'),
      CONSOLE_OIDC_ISSUER: 'https://login.example.test/realms/acme',
      CONSOLE_OIDC_CLIENT_ID: 'platform-console',
      CONSOLE_OIDC_AUDIENCE: 'https://api.example.test',
    });
    const upstreams = Object.fromEntries(SERVICE_NAMES.map((name) => [name, new URL('http://127.0.0.1:9')])) as Record<ServiceName, URL>;
    const app = createGatewayApp({ config, upstreams, logger: createLogger('gateway', 'silent') });
    const server = createServer(app.handle);
    try {
      const res = await fetch(`${await listen(server)}/console/config.json`);
      expect(await res.json()).toEqual({
        oidc: { issuer: 'https://login.example.test/realms/acme', client_id: 'platform-console', scope: 'openid email', audience: 'https://api.example.test' },
      });
      expect(res.headers.get('content-security-policy')).toContain("connect-src 'self' https://login.example.test;");
    } finally {
      app.close();
      await new Promise((r) => server.close(r));
    }
  });

  it('refuses an issuer that is not a URL, or one without a client id, at start-up', () => {
    expect(() => loadGatewayConfig({ CONSOLE_OIDC_ISSUER: 'login.example' })).toThrow(/CONSOLE_OIDC_ISSUER/);
    expect(() => loadGatewayConfig({ CONSOLE_OIDC_ISSUER: 'https://login.example.test' })).toThrow(/CONSOLE_OIDC_CLIENT_ID/);
  });
});
