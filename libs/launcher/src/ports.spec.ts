import { createServer } from 'node:net';
import { describe, expect, it } from '@jest/globals';
import { freePort } from './ports.js';

describe('freePort', () => {
  it('never hands out the same port twice, even when the OS offers it again', async () => {
    // One after another, as a platform's ports are chosen: the OS re-offers released ports (a few
    // in 300 here), which once gave two services the same port.
    const ports: number[] = [];
    for (let i = 0; i < 300; i++) ports.push(await freePort());
    expect(new Set(ports).size).toBe(300);
  });

  it('hands out a port that can be listened on', async () => {
    const port = await freePort();
    const server = createServer();
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', resolve));
    server.close();
    expect(port).toBeGreaterThan(0);
  });
});
