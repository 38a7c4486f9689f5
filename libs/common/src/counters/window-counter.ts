import { Redis, type RedisOptions } from 'ioredis';
import { redisConnection } from './redis-url.js';
import { countIo } from '../io/io-counters.js';

/**
 * Adds ARGV[1] to each key and answers the new counts; a key the increment created (its count is
 * the increment itself) gets its expiry (ARGV[1 + i]) in the same round trip.
 */
const HIT_SCRIPT = `
local n = tonumber(ARGV[1])
local counts = {}
for i, key in ipairs(KEYS) do
  local c = redis.call('INCRBY', key, n)
  if c == n then redis.call('PEXPIRE', key, ARGV[i + 1]) end
  counts[i] = c
end
return counts`;

type CountingRedis = Redis & { windowHit(...args: (string | number)[]): Promise<number[]> };

export interface WindowCounterOptions {
  url: string;
  /** A command not answered within this is failed (the caller then serves without limits). */
  commandTimeoutMs: number;
  /** A connection that stops answering (not just refusing) is dropped and reconnected. */
  socketTimeoutMs?: number;
  /** Connection errors and failed commands; callers log them at most once per interval. */
  onError?: (error: Error) => void;
  /** The connection closed: a Redis that shuts down says nothing else. */
  onClose?: () => void;
  onReady?: () => void;
}

interface Waiting {
  resolve: (counts: number[]) => void;
  reject: (error: unknown) => void;
}

interface KeyGroup {
  keys: readonly string[];
  ttlsMs: readonly number[];
  waiting: Waiting[];
  inFlight: boolean;
}

/**
 * Fixed-window counters in Redis, shared by every replica: the gateway's rate limits,
 * notification sending limits, public form limits. Hits on the same keys that arrive while an
 * earlier count of them is on its way to Redis are sent together as one increment; each caller
 * still gets the count it would have seen alone (its place in the batch), so limits stay exact
 * while a burst on one key costs one round trip per batch instead of one per request.
 * Commands fail at once while Redis is unreachable (no offline queue): callers fail open.
 */
export class WindowCounter {
  private readonly redis: CountingRedis;
  private readonly groups = new Map<string, KeyGroup>();

  constructor(options: WindowCounterOptions) {
    const client: RedisOptions = {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: options.commandTimeoutMs,
      connectTimeout: 1000,
      ...(options.socketTimeoutMs ? { socketTimeout: options.socketTimeoutMs } : {}),
      retryStrategy: (attempt) => Math.min(attempt * 100, 1000),
    };
    // One server, or the master a set of sentinels names (REDIS_URL=redis+sentinel://…).
    const at = redisConnection(options.url);
    this.redis = ('url' in at ? new Redis(at.url, client) : new Redis({ ...at.options, ...client })) as CountingRedis;
    this.redis.defineCommand('windowHit', { lua: HIT_SCRIPT });
    this.redis.on('error', (error: Error) => options.onError?.(error));
    if (options.onClose) this.redis.on('close', options.onClose);
    if (options.onReady) this.redis.on('ready', options.onReady);
    this.redis.connect().catch(() => {
      // Reported through the 'error' event; the client keeps reconnecting by itself.
    });
  }

  /** Whether commands can be sent now; while not, `hit` fails at once. */
  get ready(): boolean {
    return this.redis.status === 'ready';
  }

  /** Counts one hit on each key (created with its TTL) and answers the counts including it. */
  hit(keys: readonly string[], ttlsMs: readonly number[]): Promise<number[]> {
    const id = keys.join('\n');
    let group = this.groups.get(id);
    if (!group) {
      group = { keys, ttlsMs, waiting: [], inFlight: false };
      this.groups.set(id, group);
    }
    const promise = new Promise<number[]>((resolve, reject) => group.waiting.push({ resolve, reject }));
    if (!group.inFlight) this.send(id, group);
    return promise;
  }

  close(): void {
    this.redis.disconnect();
  }

  private send(id: string, group: KeyGroup): void {
    const batch = group.waiting;
    group.waiting = [];
    group.inFlight = true;
    const n = batch.length;
    countIo('redis.commands');
    void this.redis
      .windowHit(group.keys.length, ...group.keys, n, ...group.ttlsMs)
      .then(
        (counts) => batch.forEach((w, i) => w.resolve(counts.map((c) => c - n + i + 1))),
        (error: unknown) => batch.forEach((w) => w.reject(error)),
      )
      .finally(() => {
        group.inFlight = false;
        if (group.waiting.length) this.send(id, group);
        else this.groups.delete(id);
      });
  }
}
