import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Redis } from 'ioredis';
import { WindowCounter } from '../src/counters/window-counter.js';

const REDIS_SERVER = '/usr/bin/redis-server';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * REDIS_URL=redis+sentinel://…: a private Redis and a private sentinel watching it, on free ports
 * (the shared Redis is left alone); the counter finds the master through the sentinel alone.
 */
describe('WindowCounter through Redis Sentinel', () => {
  const processes: ChildProcess[] = [];
  let dir: string;
  let masterPort: number;
  let sentinelPort: number;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sentinel-'));
    [masterPort, sentinelPort] = [await freePort(), await freePort()];
    processes.push(spawn(REDIS_SERVER, ['--port', String(masterPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' }));
    // A sentinel rewrites its configuration file, so it gets one of its own.
    const conf = join(dir, 'sentinel.conf');
    writeFileSync(conf, [`port ${sentinelPort}`, 'bind 127.0.0.1', `dir ${dir}`, `sentinel monitor testmaster 127.0.0.1 ${masterPort} 1`, ''].join('\n'));
    processes.push(spawn(REDIS_SERVER, [conf, '--sentinel'], { stdio: 'ignore' }));
  });

  afterAll(() => {
    for (const p of processes) p.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  });

  it('counts on the master the sentinel names', async () => {
    const counter = new WindowCounter({ url: `redis+sentinel://127.0.0.1:${sentinelPort}/testmaster`, commandTimeoutMs: 1000 });
    const master = new Redis(masterPort, '127.0.0.1');
    try {
      for (let i = 0; i < 100 && !counter.ready; i++) await new Promise((r) => setTimeout(r, 50));
      expect(counter.ready).toBe(true);
      expect(await counter.hit(['rl:sentinel'], [60_000])).toEqual([1]);
      expect(await counter.hit(['rl:sentinel'], [60_000])).toEqual([2]);
      expect(await master.get('rl:sentinel')).toBe('2');
    } finally {
      counter.close();
      master.disconnect();
    }
  }, 20_000);
});
