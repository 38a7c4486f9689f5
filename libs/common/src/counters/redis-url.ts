import { ValidateBy } from 'class-validator';
import type { RedisOptions } from 'ioredis';

/**
 * Where Redis is, from one URL:
 *
 * - `redis://[[user]:password@]host[:port][/db]` or `rediss://…` (TLS): one server;
 * - `redis+sentinel://[[user]:password@]host1[:26379],host2[:26379]/<master name>[/db]`: the
 *   master that the sentinels name, followed through fail-overs (ioredis asks the sentinels
 *   again on every reconnect). The credentials are the master's; the sentinels are asked without.
 *
 * Returns the options ioredis takes, or throws a RedisUrlError saying what is wrong.
 */
export function redisConnection(url: string): { url: string } | { options: RedisOptions } {
  if (/^rediss?:\/\/\S+$/.test(url)) return { url };
  const m = /^redis\+sentinel:\/\/(?:([^@/]*)@)?([^/@]+)\/([^/?#]+)(?:\/(\d+))?\/?$/.exec(url);
  if (!m) throw new RedisUrlError(url);
  const [, auth, hosts, name, db] = m;
  const sentinels = hosts.split(',').map((entry) => {
    const hp = /^([^:,\s]+|\[[0-9a-fA-F:]+\])(?::(\d{1,5}))?$/.exec(entry);
    if (!hp) throw new RedisUrlError(url, `sentinel "${entry}" is not host[:port]`);
    return { host: hp[1].replace(/^\[|\]$/g, ''), port: hp[2] ? Number(hp[2]) : 26379 };
  });
  const [user, password] = auth === undefined ? [] : auth.includes(':') ? auth.split(/:(.*)/s) : [undefined, auth];
  return {
    options: {
      sentinels,
      name: decodeURIComponent(name),
      ...(user ? { username: decodeURIComponent(user) } : {}),
      ...(password ? { password: decodeURIComponent(password) } : {}),
      ...(db ? { db: Number(db) } : {}),
    },
  };
}

export class RedisUrlError extends Error {
  constructor(url: string, detail?: string) {
    super(
      `${detail ? `${detail}: ` : ''}must be redis://host:port, rediss://host:port or redis+sentinel://host1:26379,host2:26379/<master name> (got '${url.replace(/\/\/[^@/]*@/, '//***@')}')`,
    );
    this.name = 'RedisUrlError';
  }
}

/** For settings: whether `url` is one redisConnection takes. */
export function isRedisUrl(url: unknown): boolean {
  if (typeof url !== 'string') return false;
  try {
    redisConnection(url);
    return true;
  } catch {
    return false;
  }
}

/** The REDIS_URL setting's check: the service refuses to start with a URL redisConnection cannot use. */
export const IsRedisUrl = () =>
  ValidateBy({
    name: 'isRedisUrl',
    validator: {
      validate: isRedisUrl,
      defaultMessage: () => 'must be redis://host:port, rediss://host:port or redis+sentinel://host1:26379,host2:26379/<master name>',
    },
  });
