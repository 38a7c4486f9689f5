import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';

/** A local HTTP server on a free port, handed each request with its whole body. */
export function listen(handler: (req: IncomingMessage, res: ServerResponse, body: string) => void): Promise<Server> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => handler(req, res, Buffer.concat(chunks).toString('utf8')));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

export const portOf = (server: Server) => (server.address() as AddressInfo).port;

export type SeenRequest = { url: string; headers: IncomingMessage['headers'] };

/** The server of the http.request step's tests: every case they need, by path; records each request in `seen`. */
export function listenForStepTests(seen: SeenRequest[]): Promise<Server> {
  return listen((req, res, body) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    seen.push({ url: req.url ?? '', headers: req.headers });
    const to = url.searchParams.get('to');
    switch (url.pathname) {
      case '/json':
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify({ hello: 'world', n: [1, 2] }));
        return;
      case '/problem':
        res.writeHead(200, { 'content-type': 'application/problem+json' }).end('{"title":"x"}');
        return;
      case '/not-json':
        res.writeHead(200, { 'content-type': 'application/json' }).end('<html>oops</html>');
        return;
      case '/text':
        res.writeHead(200, { 'content-type': 'text/plain' }).end('plain text ✓');
        return;
      case '/latin1':
        res.writeHead(200, { 'content-type': 'text/plain; charset=iso-8859-1' }).end(Buffer.from([0x63, 0x61, 0x66, 0xe9]));
        return;
      case '/binary':
        res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(Buffer.from([0, 1, 2, 253, 254, 255]));
        return;
      case '/echo':
        res.writeHead(200, { 'content-type': 'application/json', 'set-cookie': ['a=1', 'b=2'], 'X-Custom': 'Yes' });
        res.end(JSON.stringify({ method: req.method, url: req.url, headers: req.headers, body }));
        return;
      case '/empty':
        res.writeHead(204).end();
        return;
      case '/status': {
        const status = Number(url.searchParams.get('code'));
        const headers: Record<string, string> = { 'content-type': 'text/plain' };
        if (status === 429) headers['retry-after'] = '7';
        res.writeHead(status, headers).end('E'.repeat(5000));
        return;
      }
      case '/slow':
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.write('started');
        return; // never ends
      case '/hang':
        return; // never answers
      case '/big':
        res.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(100 * 1024) }).end('x'.repeat(100 * 1024));
        return;
      case '/big-chunked': {
        res.writeHead(200, { 'content-type': 'text/plain' });
        for (let i = 0; i < 100; i++) res.write('y'.repeat(1024));
        res.end();
        return;
      }
      case '/gzip':
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(gzipSync(JSON.stringify({ zipped: true })));
        return;
      case '/gzip-bomb':
        res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' }).end(gzipSync(Buffer.alloc(10 * 1024 * 1024)));
        return;
      case '/redirect':
        res.writeHead(Number(url.searchParams.get('status') ?? 302), { location: to ?? '/json' }).end();
        return;
      case '/loop':
        res.writeHead(302, { location: '/loop' }).end();
        return;
      default:
        res.writeHead(404).end('not found');
    }
  });
}
