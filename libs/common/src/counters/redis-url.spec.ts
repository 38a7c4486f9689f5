import { describe, expect, it } from '@jest/globals';
import { isRedisUrl, redisConnection } from './redis-url.js';

describe('REDIS_URL', () => {
  it('passes one server’s URL to ioredis as it is', () => {
    expect(redisConnection('redis://127.0.0.1:6379')).toEqual({ url: 'redis://127.0.0.1:6379' });
    expect(redisConnection('rediss://:pw@cache:6380/2')).toEqual({ url: 'rediss://:pw@cache:6380/2' });
  });

  it('reads sentinels, the master’s name, its credentials and database', () => {
    expect(redisConnection('redis+sentinel://s1:26379,s2,[::1]:26380/mymaster')).toEqual({
      options: {
        sentinels: [
          { host: 's1', port: 26379 },
          { host: 's2', port: 26379 },
          { host: '::1', port: 26380 },
        ],
        name: 'mymaster',
      },
    });
    expect(redisConnection('redis+sentinel://app:p%40ss@s1/main/3')).toEqual({
      options: { sentinels: [{ host: 's1', port: 26379 }], name: 'main', username: 'app', password: 'p@ss', db: 3 },
    });
    expect(redisConnection('redis+sentinel://:secret@s1:1/m')).toMatchObject({ options: { password: 'secret', name: 'm' } });
  });

  it.each(['', 'http://r:6379', 'redis+sentinel://s1:26379', 'redis+sentinel://s1:26379,/m', 'redis+sentinel://s1:port/m', 'redis+sentinel:///m'])(
    'refuses %p with a message naming the forms it takes',
    (url) => {
      expect(isRedisUrl(url)).toBe(false);
      expect(() => redisConnection(url)).toThrow(/redis\+sentinel:\/\/host1:26379,host2:26379\/<master name>/);
    },
  );

  it('keeps a password out of the message', () => {
    expect(() => redisConnection('redis+sentinel://:hunter2@s1:x/m')).toThrow(/\*\*\*@/);
    expect(() => redisConnection('redis+sentinel://:hunter2@s1:x/m')).not.toThrow(/hunter2/);
  });
});
