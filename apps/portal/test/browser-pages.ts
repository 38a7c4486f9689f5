import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TenantSite {
  origin: string;
  /** What the page holds from now on: the embed snippet in a page of the tenant's own. */
  show: (title: string, snippet: string) => void;
  close: () => Promise<void>;
}

/** A stand-in for a tenant's own site: one page on its own origin (known before the embed is made). */
export async function tenantSite(): Promise<TenantSite> {
  let html = '';
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    show: (title, snippet) => {
      html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head>
<body><h1>${title}</h1><p>The form below is served by the platform.</p>${snippet}</body></html>`;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
