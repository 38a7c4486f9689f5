import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Recorded {
  method: string;
  path: string;
  authorization: string | undefined;
  contentType: string | undefined;
  idempotencyKey: string | undefined;
  body: string;
  at: number;
}

export const SLACK_TOKEN = 'xoxb-good-slack-token-1f6c2a';
export const GITHUB_TOKEN = 'ghp_goodGithubToken7d3e91';
export const STRIPE_KEY = 'sk_test_goodStripeKey5b8a0c';

/**
 * One local server standing in for Slack (/slack), GitHub (/github) and Stripe (/stripe), as real
 * HTTP: it records every request (with its Authorization header) and answers the way each API does.
 * Under /echo it refuses every request with 401, echoing the path, every header and the body it
 * got (as careless APIs do); under /echo-ok it answers 200 with the same.
 */
export class StandIns {
  readonly requests: Recorded[] = [];
  private server!: Server;
  base = '';
  private readonly counters = new Map<string, number>();

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      void readBody(req).then((body) => {
        const path = req.url ?? '/';
        this.requests.push({
          method: req.method ?? 'GET',
          path,
          authorization: req.headers.authorization,
          contentType: req.headers['content-type'],
          idempotencyKey: req.headers['idempotency-key'] as string | undefined,
          body,
          at: Date.now(),
        });
        if (path.startsWith('/echo')) {
          const echo = `you sent ${req.method ?? ''} ${path} with ${JSON.stringify(req.headers)} and ${body}`;
          const ok = path.startsWith('/echo-ok');
          res.writeHead(ok ? 200 : 401, { 'content-type': 'application/json' }).end(JSON.stringify(ok ? { echo } : { error: { message: echo } }));
          return;
        }
        const [status, payload, headers] = this.answer(req.method ?? 'GET', path, req.headers.authorization, body);
        res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(payload));
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  stop(): void {
    this.server?.close();
  }

  to(prefix: string): Recorded[] {
    return this.requests.filter((r) => r.path.startsWith(prefix));
  }

  private count(key: string): number {
    const n = (this.counters.get(key) ?? 0) + 1;
    this.counters.set(key, n);
    return n;
  }

  private answer(method: string, path: string, auth: string | undefined, body: string): [number, unknown, Record<string, string>?] {
    const bearer = auth?.startsWith('Bearer ') ? auth.slice(7) : undefined;
    if (path.startsWith('/slack/')) {
      const good = bearer === SLACK_TOKEN || (bearer ?? '').startsWith('xoxb-customer-');
      if (!good) return [200, { ok: false, error: 'invalid_auth' }];
      if (path === '/slack/auth.test') return [200, { ok: true, team: 'Acme', user: 'bot' }];
      if (path === '/slack/chat.postMessage') {
        const sent = JSON.parse(body || '{}') as { channel?: string };
        return [200, { ok: true, channel: sent.channel, ts: '1732460000.000100' }];
      }
      return [200, { ok: false, error: 'unknown_method' }];
    }
    if (path.startsWith('/github/')) {
      if (bearer !== GITHUB_TOKEN) return [401, { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest' }];
      if (path === '/github/user') return [200, { login: 'octo', id: 1 }];
      if (method === 'POST' && /^\/github\/repos\/[^/]+\/[^/]+\/issues$/.test(path)) {
        // The first call of each repository is rate limited, the way GitHub's secondary limits answer.
        if (path.includes('/limited/') && this.count(path) === 1) return [429, { message: 'You have exceeded a secondary rate limit' }, { 'retry-after': '1' }];
        return [201, { number: 42, html_url: `https://github.com${path.replace('/github/repos', '')}/42` }];
      }
      return [404, { message: 'Not Found' }];
    }
    if (path.startsWith('/stripe/')) {
      if (bearer !== STRIPE_KEY) return [401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided: sk_test_****' } }];
      if (path === '/stripe/balance') return [200, { object: 'balance', available: [{ amount: 1000, currency: 'eur' }] }];
      if (path === '/stripe/customers' && method === 'POST') return [200, { id: 'cus_Q1', object: 'customer' }];
      if (path.startsWith('/stripe/outage')) return [503, { error: { message: 'Stripe is down' } }];
      return [404, { error: { message: 'Unrecognized request URL' } }];
    }
    return [404, { error: 'no such stand-in' }];
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}
