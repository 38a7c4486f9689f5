import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  at: number;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
}

/** What the stand-in answers a request to a path: a status, and headers; `undefined` answers 200 "ok". */
export type Script = (path: string, hitNumber: number) => { status: number; headers?: Record<string, string>; body?: string } | undefined;

/**
 * A local stand-in for Slack's and Teams' webhook endpoints: records every payload by path and
 * answers as its script says (429 with Retry-After, 500, 400, …).
 */
export class StandIn {
  readonly received: Received[] = [];
  private readonly hits = new Map<string, number>();
  private server?: Server;
  url = '';

  constructor(private readonly script: Script = () => undefined) {}

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const path = req.url ?? '/';
        const n = (this.hits.get(path) ?? 0) + 1;
        this.hits.set(path, n);
        let body: Record<string, unknown> = {};
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
        } catch {
          // recorded as empty
        }
        this.received.push({ path, at: Date.now(), headers: req.headers, body });
        const answer = this.script(path, n) ?? { status: 200, body: 'ok' };
        res.writeHead(answer.status, { 'content-type': 'text/plain', ...(answer.headers ?? {}) }).end(answer.body ?? '');
      });
    });
    this.server.keepAliveTimeout = 1000;
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  at(path: string): Received[] {
    return this.received.filter((r) => r.path === path);
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
