import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
  at: number;
}

export type Handler = (req: Seen, res: ServerResponse) => void;

/** A stand-in for the platform on a free loopback port: each request goes to `handler`, and is recorded. */
export class StandInServer {
  readonly seen: Seen[] = [];
  handler: Handler = (_req, res) => res.writeHead(404).end();
  private server?: Server;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const seen = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body, at: Date.now() };
        this.seen.push(seen);
        this.handler(seen, res);
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  reset(handler: Handler): void {
    this.seen.length = 0;
    this.handler = handler;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}

export function errorBody(status: number, code: string, message: string, extra: Record<string, unknown> = {}) {
  return { error: 'Error', code, message, status, request_id: 'req-from-server', ...extra };
}
