import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from '@jest/globals';
import { pino } from 'pino';
import { accessLogMiddleware } from './access-log.js';
import { requestIdMiddleware } from './request-id.js';

function capture(level: string) {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  return { logger: pino({ level }, stream), lines };
}

let server: Server | undefined;
afterEach(() => {
  server?.close();
});

async function serve(level: string, handler: (status: number) => number = (s) => s) {
  const { logger, lines } = capture(level);
  const log = accessLogMiddleware(logger);
  server = createServer((req, res) => {
    requestIdMiddleware(req, res, () =>
      log(req, res, () => {
        const status = handler(Number(new URL(req.url!, 'http://x').searchParams.get('status') ?? 200));
        if (status === 0) return; // never answer: the client gives up
        res.statusCode = status;
        res.end('ok');
      }),
    );
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const get = (path: string, headers: Record<string, string> = {}, abortAfterMs?: number) =>
    new Promise<void>((resolve) => {
      const req = request({ port, path, headers }, (res) => res.resume().on('end', resolve));
      req.on('error', () => resolve());
      if (abortAfterMs !== undefined) setTimeout(() => req.destroy(), abortAfterMs);
      req.end();
    });
  const settle = () => new Promise((r) => setTimeout(r, 30));
  return { lines, get, settle };
}

describe('accessLogMiddleware', () => {
  it('logs each request once with id, method, url, status and time, at a level from the status', async () => {
    const { lines, get, settle } = await serve('info');
    await get('/things?status=201', { 'x-request-id': 'req-1' });
    await get('/things?status=404');
    await get('/things?status=503');
    await settle();
    expect(lines.map((l) => [l.level, l.msg, (l.req as { method: string }).method, (l.res as { status: number }).status])).toEqual([
      [30, 'request completed', 'GET', 201],
      [40, 'request completed', 'GET', 404],
      [50, 'request completed', 'GET', 503],
    ]);
    expect(lines[0]).toMatchObject({ request_id: 'req-1', req: { url: '/things?status=201' }, responseTime: expect.any(Number) });
  });

  it('skips health checks, and what the level filters out', async () => {
    const { lines, get, settle } = await serve('warn');
    await get('/actuator/health?status=503');
    await get('/ok');
    await get('/missing?status=404');
    await settle();
    expect(lines.map((l) => (l.res as { status: number }).status)).toEqual([404]);
  });

  it('logs a request the client abandoned before the answer as aborted', async () => {
    const { lines, get, settle } = await serve('info');
    await get('/slow?status=0', {}, 50);
    await settle();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 40, msg: 'request aborted', req: { url: '/slow?status=0' } });
  });
});
