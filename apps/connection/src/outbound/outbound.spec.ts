import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AppError } from '@platform/common';
import { ConnectionConfig } from '../config/connection.config.js';
import { Outbound } from './outbound.js';

function outbound(allowPrivate: boolean): Outbound {
  return new Outbound(Object.assign(new ConnectionConfig(), { CONNECTION_ALLOW_PRIVATE_NETWORKS: allowPrivate, CONNECTION_TIMEOUT_MS: 2000 }));
}

describe('Outbound (the SSRF rules of http.request, for connectors)', () => {
  let server: Server;
  let port = 0;
  let hits = 0;
  let sockets = 0;

  beforeAll(async () => {
    server = createServer((_req, res) => {
      hits++;
      res.end('{}');
    });
    server.on('connection', () => sockets++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(() => {
    server.close();
  });

  it.each([
    `http://127.0.0.1:PORT/`,
    'http://169.254.169.254/latest/meta-data/',
    'http://10.1.2.3/',
    'http://[::1]:PORT/',
    'http://2130706433:PORT/',
    'http://localhost:PORT/',
  ])('refuses %s before connecting', async (target) => {
    const before = hits;
    const error = await outbound(false)
      .send({ method: 'GET', url: new URL(target.replace('PORT', String(port))), headers: {} })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('ssrf_blocked');
    expect(hits).toBe(before);
  });

  it('reaches loopback only where private networks are allowed', async () => {
    const res = await outbound(true).send({ method: 'GET', url: new URL(`http://127.0.0.1:${port}/`), headers: {} });
    expect(res.status).toBe(200);
  });

  it('reuses sockets within one connection only', async () => {
    const out = outbound(true);
    const url = new URL(`http://127.0.0.1:${port}/`);
    const before = sockets;
    await out.send({ method: 'GET', url, headers: {}, pool: 'connection-a' });
    await out.send({ method: 'GET', url, headers: {}, pool: 'connection-a' });
    expect(sockets - before).toBe(1);
    await out.send({ method: 'GET', url, headers: {}, pool: 'connection-b' });
    await out.send({ method: 'GET', url, headers: {} });
    expect(sockets - before).toBe(3);
    out.onModuleDestroy();
  });

  it('gives oauth4webapi a fetch that obeys the same rules', async () => {
    await expect(outbound(false).fetch(`http://127.0.0.1:${port}/token`, { method: 'POST', body: 'grant_type=refresh_token' })).rejects.toMatchObject({
      code: 'ssrf_blocked',
    });
    const ok = await outbound(true).fetch(`http://127.0.0.1:${port}/token`, {
      method: 'POST',
      body: 'x=1',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect([ok.status, await ok.json()]).toEqual([200, {}]);
  });
});
