import type { TenantContext } from './tenant-db.js';

const MAX_BATCH = 64;

/** One string per tenant context (tenant, environment, scope): what batches and groups are keyed by. */
export function tenantContextKey(ctx: TenantContext): string {
  return `${ctx.tenantId}/${ctx.environmentId}/${ctx.scopeId ?? ''}`;
}

interface Pending<I, R> {
  item: I;
  resolve: (result: R) => void;
  reject: (error: unknown) => void;
}

interface Group<I, R> {
  key: string;
  ctx: TenantContext;
  items: Pending<I, R>[];
  /** Batches of this context in the database now. */
  inFlight: number;
}

export interface TenantBatcherOptions {
  /**
   * At most this many batches of one tenant context in the database at once (default: no limit).
   * Writes made while they are there wait for one to return and then go together: group commit,
   * so under load a context's writes share commits however they arrive, and alone a write goes
   * at once.
   */
  inFlight?: number;
}

/**
 * Gathers the writes of one tenant context made in the same turn of the event loop (up to 64) and
 * runs them as one statement in one transaction: under a burst, writes of one tenant share a
 * commit instead of paying a transaction each (webhook deliveries, notification sends, claims and
 * attempt records, finished run starts). Each caller gets its own result; a failed batch fails
 * each of its callers (their work items are then redelivered).
 */
export class TenantBatcher<I, R> {
  private readonly groups = new Map<string, Group<I, R>>();
  private readonly waiting = new Set<Group<I, R>>();
  private scheduled = false;
  private readonly inFlight: number;

  constructor(
    private readonly run: (ctx: TenantContext, items: I[]) => Promise<R[]>,
    options: TenantBatcherOptions = {},
  ) {
    this.inFlight = options.inFlight ?? Infinity;
  }

  submit(ctx: TenantContext, item: I): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      const key = tenantContextKey(ctx);
      let group = this.groups.get(key);
      if (!group) this.groups.set(key, (group = { key, ctx, items: [], inFlight: 0 }));
      group.items.push({ item, resolve, reject });
      if (group.items.length >= MAX_BATCH && group.inFlight < this.inFlight) this.send(group);
      else if (group.inFlight < this.inFlight) {
        this.waiting.add(group);
        if (!this.scheduled) {
          this.scheduled = true;
          setImmediate(() => this.flush());
        }
      }
      // Otherwise the group waits for one of its batches to return (settle).
    });
  }

  private flush(): void {
    this.scheduled = false;
    const groups = [...this.waiting];
    this.waiting.clear();
    for (const group of groups) if (group.items.length && group.inFlight < this.inFlight) this.send(group);
  }

  private send(group: Group<I, R>): void {
    const items = group.items.splice(0, MAX_BATCH);
    group.inFlight++;
    void this.runBatch(group, items);
  }

  private async runBatch(group: Group<I, R>, items: Pending<I, R>[]): Promise<void> {
    try {
      const results = await this.run(
        group.ctx,
        items.map((p) => p.item),
      );
      items.forEach((p, i) => p.resolve(results[i]));
    } catch (error) {
      for (const p of items) p.reject(error);
    } finally {
      group.inFlight--;
      if (group.items.length) this.send(group);
      else if (!group.inFlight && this.groups.get(group.key) === group) this.groups.delete(group.key);
    }
  }
}
