/** A value computed somewhere else at a known time: a newer computation replaces an older one, never the reverse. */
export interface Computed {
  computedAt: string;
}

interface Entry<T> {
  value?: T;
  fetchedAt: number;
  loading?: Promise<T | undefined>;
}

export interface RefreshingCacheOptions<T> {
  /** Asks the owner for the current value; undefined when it cannot answer now. */
  load: (key: string) => Promise<T | undefined>;
  /** How long a value is used before it is asked for again (a fallback for missed pushes). */
  refreshMs: number;
  /** After an unanswered ask, the pause before the next one (not on every use). */
  retryMs?: number;
  /** Bounds the entries: a flood of made-up keys cannot grow memory without limit. */
  maxEntries?: number;
}

/**
 * Values kept per key (a tenant's plan limits), asked for once, then kept current by changes the
 * owner pushes (`apply`) and a periodic refresh in the background. Used by the gateway's plan
 * directory and the notification service's sending limits.
 */
export class RefreshingCache<T extends Computed> {
  private readonly entries = new Map<string, Entry<T>>();
  private readonly retryMs: number;
  private readonly maxEntries: number;

  constructor(private readonly options: RefreshingCacheOptions<T>) {
    this.retryMs = options.retryMs ?? 2000;
    this.maxEntries = options.maxEntries ?? 100_000;
  }

  /** The cached value at once (undefined until the first answer); asks in the background when missing or due. */
  peek(key: string, now = Date.now()): T | undefined {
    const entry = this.entry(key);
    if (!entry.loading && now - entry.fetchedAt >= this.options.refreshMs) void this.fetch(key, entry);
    return entry.value;
  }

  /** Like `peek`, but the first use of a key waits for the owner's answer (a refresh never waits). */
  async get(key: string, now = Date.now()): Promise<T | undefined> {
    const entry = this.entry(key);
    const value = this.peek(key, now);
    if (value !== undefined || !entry.loading || entry.fetchedAt !== -Infinity) return value;
    return entry.loading;
  }

  /** A pushed change; kept only for keys in use, and only when newer than what is cached. */
  apply(key: string, value: T): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    if (entry.value && entry.value.computedAt > value.computedAt) return;
    entry.value = value;
    entry.fetchedAt = Date.now();
  }

  private entry(key: string): Entry<T> {
    let entry = this.entries.get(key);
    if (!entry) {
      if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
      entry = { fetchedAt: -Infinity };
      this.entries.set(key, entry);
    }
    return entry;
  }

  private fetch(key: string, entry: Entry<T>): Promise<T | undefined> {
    const settle = (value: T | undefined): T | undefined => {
      entry.loading = undefined;
      if (value) this.apply(key, value);
      // Not answered: try again after a short pause rather than on every use.
      else entry.fetchedAt = Date.now() - this.options.refreshMs + this.retryMs;
      return entry.value;
    };
    entry.loading = this.options.load(key).then(settle, () => settle(undefined));
    return entry.loading;
  }
}
