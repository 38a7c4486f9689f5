import { describe, expect, it } from '@jest/globals';
import { ConfigError } from '@platform/common';
import { loadGatewayConfig } from '../config/gateway.config.js';

describe('rate-limit settings', () => {
  it('has the documented defaults', () => {
    expect(loadGatewayConfig({})).toMatchObject({
      REDIS_URL: 'redis://127.0.0.1:6379',
      RATE_LIMIT_ENABLED: true,
      RATE_LIMIT_LIVE_PER_MINUTE: 600,
      RATE_LIMIT_TEST_PER_MINUTE: 1200,
      RATE_LIMIT_USER_PER_MINUTE: 600,
      RATE_LIMIT_ANONYMOUS_PER_MINUTE: 300,
      RATE_LIMIT_WINDOW_SECONDS: 60,
      RATE_LIMIT_KEY_PREFIX: 'rl',
      PLAN_LIMITS_ENABLED: true,
      QUOTAS_ENABLED: true,
    });
    // Quotas are their own setting: rate limiting off leaves them on.
    expect(loadGatewayConfig({ RATE_LIMIT_ENABLED: 'false' }).QUOTAS_ENABLED).toBe(true);
  });

  it.each([
    ['false', false],
    ['FALSE', false],
    ['0', false],
    ['true', true],
    ['1', true],
  ])('reads RATE_LIMIT_ENABLED=%s as %s', (raw, enabled) => {
    expect(loadGatewayConfig({ RATE_LIMIT_ENABLED: raw }).RATE_LIMIT_ENABLED).toBe(enabled);
  });

  it('reads the limits as integers', () => {
    const config = loadGatewayConfig({ RATE_LIMIT_TEST_PER_MINUTE: '3', RATE_LIMIT_WINDOW_SECONDS: '10', REDIS_URL: 'rediss://cache:6380/1' });
    expect(config.RATE_LIMIT_TEST_PER_MINUTE).toBe(3);
    expect(config.RATE_LIMIT_WINDOW_SECONDS).toBe(10);
  });

  it('takes the master a set of sentinels names, and refuses sentinels without a master name', () => {
    expect(loadGatewayConfig({ REDIS_URL: 'redis+sentinel://s1:26379,s2:26379/mymaster' }).REDIS_URL).toBe('redis+sentinel://s1:26379,s2:26379/mymaster');
    expect(() => loadGatewayConfig({ REDIS_URL: 'redis+sentinel://s1:26379,s2:26379' })).toThrow(/REDIS_URL: must be .*redis\+sentinel:\/\/host1:26379/);
  });

  it('refuses invalid values, naming each', () => {
    const env = {
      RATE_LIMIT_ENABLED: 'maybe',
      RATE_LIMIT_LIVE_PER_MINUTE: '0',
      RATE_LIMIT_ANONYMOUS_PER_MINUTE: 'lots',
      RATE_LIMIT_WINDOW_SECONDS: '1.5',
      REDIS_URL: 'http://cache:6379',
      RATE_LIMIT_KEY_PREFIX: 'has space',
    };
    let error: unknown;
    try {
      loadGatewayConfig(env);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const named = (error as ConfigError).problems.map((problem) => problem.split(':')[0]).sort();
    expect(named).toEqual(Object.keys(env).sort());
  });
});
