import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import express, { Router, type Response } from 'express';
import { errorBody } from '@platform/common';

/** apps/console/dist/app, seen from apps/gateway/dist/src/console. */
const BUILT_CONSOLE = resolve(import.meta.dirname, '../../../../console/dist/app');

/**
 * What the browser may do on a console page: scripts, styles, images and API calls from the
 * gateway's own origin only, no inline script or style element, no plugins, never framed. The
 * API key the console keeps in session storage is safe only as long as no other script runs.
 */
export const CONSOLE_CSP = consoleCsp();

/** With an identity provider, the console also fetches its discovery document and token endpoint. */
export function consoleCsp(oidcIssuer = ''): string {
  const connect = oidcIssuer ? `connect-src 'self' ${new URL(oidcIssuer).origin}` : "connect-src 'self'";
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    connect,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** What the console reads at start (`/console/config.json`): how users may sign in. */
export interface ConsoleSettings {
  oidc: { issuer: string; client_id: string; scope: string; audience: string | null } | null;
}

/** Hashed file names change with their content: a year, never revalidated. */
export const ASSET_CACHE = 'public, max-age=31536000, immutable';

function secure(res: Response, csp: string): void {
  res.setHeader('content-security-policy', csp);
  res.setHeader('x-content-type-options', 'nosniff');
  res.setHeader('referrer-policy', 'no-referrer');
  res.setHeader('x-frame-options', 'DENY');
}

export function consoleDir(configured: string): string {
  return configured ? resolve(configured) : BUILT_CONSOLE;
}

/**
 * The web console (apps/console) at `/console`: its hashed assets cached for good, index.html
 * for every other path below /console (the app's own routes, so deep links work) and never
 * cached, so a new build is picked up on the next load. A missing asset is a 404, not the page.
 */
export function consoleRoutes(dir: string, settings: ConsoleSettings = { oidc: null }): Router {
  const router = Router();
  const index = join(dir, 'index.html');
  const csp = consoleCsp(settings.oidc?.issuer);
  router.use('/console', (_req, res, next) => {
    secure(res, csp);
    next();
  });
  router.get('/console/config.json', (_req, res) => {
    res.setHeader('cache-control', 'no-cache');
    res.json(settings);
  });
  router.use(
    '/console/assets',
    express.static(join(dir, 'assets'), { immutable: true, maxAge: '1y', index: false, redirect: false, fallthrough: false, etag: false }),
  );
  router.get(['/console', '/console/', '/console/*rest'], (req, res) => {
    // Checked on each request: the gateway may start before the console's first build.
    if (!existsSync(index)) {
      res.status(503).json(errorBody(503, 'The console is not built: run `npm run build`', (req as unknown as { id?: string }).id));
      return;
    }
    res.setHeader('cache-control', 'no-cache');
    res.sendFile(index);
  });
  return router;
}

/** `/console`, `/console/…` and `/console?…`, not `/consoles`. */
export const CONSOLE_PATH = /^\/console(\/|\?|$)/;
