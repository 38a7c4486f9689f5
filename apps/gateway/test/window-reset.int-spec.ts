import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Redis } from 'ioredis';
import { call, freePort, serviceEntry, sleep, startProcess, type ManagedProcess } from '@platform/testing';

// A real gateway against the real Redis, with 2-second windows so a reset can be watched.
const PREFIX = `rl-reset-${randomBytes(6).toString('hex')}`;

describe('rate-limit windows', () => {
  let url: string;
  let gateway: ManagedProcess;

  beforeAll(async () => {
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    gateway = await startProcess({
      name: 'gateway',
      entry: serviceEntry('gateway'),
      env: {
        GATEWAY_PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        RATE_LIMIT_KEY_PREFIX: PREFIX,
        RATE_LIMIT_WINDOW_SECONDS: '2',
        RATE_LIMIT_TEST_PER_MINUTE: '3',
        PLAN_LIMITS_ENABLED: 'false',
      },
      healthUrl: `${url}/actuator/health/liveness`,
    });
  }, 60_000);

  afterAll(async () => {
    await gateway?.stop();
    const redis = new Redis('redis://127.0.0.1:6379', { maxRetriesPerRequest: 1 });
    const keys = await redis.keys(`${PREFIX}:*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  });

  it('starts every window afresh', async () => {
    const key = { 'x-api-key': `sv_test_${randomBytes(16).toString('hex')}` };
    const get = () => call(url, '/catalog/connectors', { headers: key });
    for (let i = 0; i < 50 && (await get()).headers.get('x-ratelimit-limit') === null; i++) await sleep(100);
    // Start at the beginning of a window, so the whole sequence fits in it. A loaded machine can
    // still stretch four calls past the window's end: every answer names its window's reset, so a
    // sequence that crossed one is seen as such and tried again in the next window.
    let statuses: number[] = [];
    for (let attempt = 0; attempt < 5; attempt++) {
      await sleep(2000 - (Date.now() % 2000) + 20);
      const answers = [];
      for (let i = 0; i < 4; i++) answers.push(await get());
      statuses = answers.map((res) => res.status);
      if (new Set(answers.map((res) => res.headers.get('x-ratelimit-reset'))).size === 1) break;
    }
    expect(statuses.slice(0, 3).every((s) => s !== 429)).toBe(true);
    expect(statuses[3]).toBe(429);
    await sleep(2000 - (Date.now() % 2000) + 20);
    const fresh = await get();
    expect(fresh.status).not.toBe(429);
    expect(fresh.headers.get('x-ratelimit-remaining')).toBe('2');
  }, 30_000);
});
