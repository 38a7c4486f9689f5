import { Router, type Request, type Response } from 'express';
import swaggerUi from 'swagger-ui-dist';
import { SERVICE_NAMES, SERVICES, errorBody, type ServiceName } from '@platform/common';
import { mergeOpenApi, type OpenApiDocument } from './merge-openapi.js';

/** Headers that carry the caller's credentials to each service's docs access check. */
const FORWARDED = ['authorization', 'x-api-key', 'x-selected-tenant', 'x-selected-env', 'x-request-id'];

function credentials(req: Request): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of FORWARDED) {
    const value = req.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  return headers;
}

function explorerPage(): string {
  const urls = SERVICE_NAMES.map((name) => ({ url: `/v3/api-docs/${name}`, name: `${SERVICES[name].title} (${name})` }));
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Platform API explorer</title>
<link rel="stylesheet" href="/swagger-ui/swagger-ui.css"></head>
<body><div id="swagger-ui"></div>
<script src="/swagger-ui/swagger-ui-bundle.js"></script>
<script src="/swagger-ui/swagger-ui-standalone-preset.js"></script>
<script src="/swagger-ui/explorer-init.js"></script>
<script>window.__services = ${JSON.stringify(urls)};</script>
</body></html>`;
}

const INIT = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    urls: window.__services, dom_id: '#swagger-ui', deepLinking: true, persistAuthorization: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset], layout: 'StandaloneLayout'
  });
});`;

/**
 * `/v3/api-docs` (every service merged), `/v3/api-docs/<service>` (proxied by the caller) and
 * the explorer at `/swagger-ui` listing every service. Access to the documents is decided by
 * each service, with the caller's own credentials.
 */
export function docsRoutes(upstreams: Record<ServiceName, URL>, timeoutMs: number): Router {
  const router = Router();

  router.get('/v3/api-docs', async (req: Request, res: Response) => {
    const headers = credentials(req);
    const answers = await Promise.all(
      SERVICE_NAMES.map(async (service) => {
        try {
          const r = await fetch(new URL('/v3/api-docs', upstreams[service]), { headers, signal: AbortSignal.timeout(timeoutMs) });
          return { service, status: r.status, body: await r.json() };
        } catch {
          return { service, status: 502, body: undefined };
        }
      }),
    );
    const denied = answers.find((a) => a.status === 401 || a.status === 403);
    if (denied) {
      res.status(denied.status).json(denied.body);
      return;
    }
    const available = answers.filter((a) => a.status === 200);
    const merged = mergeOpenApi(available.map((a) => ({ service: a.service, document: a.body as OpenApiDocument })));
    const missing = answers.filter((a) => a.status !== 200).map((a) => a.service);
    if (missing.length) merged.info['x-unavailable-services'] = missing;
    res.json(merged);
  });

  router.get('/swagger-ui', (_req, res) => {
    res.type('html').send(explorerPage());
  });
  router.get('/swagger-ui/explorer-init.js', (_req, res) => {
    res.type('application/javascript').send(INIT);
  });
  router.use('/swagger-ui', (req, res, next) => {
    // Static assets of the explorer; anything else under /swagger-ui is unknown.
    const asset = req.path.replace(/^\//, '');
    if (!/^[\w.-]+\.(css|js|png|map)$/.test(asset)) {
      next();
      return;
    }
    res.sendFile(asset, { root: swaggerUi.getAbsoluteFSPath(), maxAge: '1h' }, (error) => {
      if (error) res.status(404).json(errorBody(404, `No such explorer asset: ${asset}`, (req as Request & { id?: string }).id));
    });
  });

  return router;
}
