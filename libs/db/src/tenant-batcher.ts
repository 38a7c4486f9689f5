import type { TenantContext } from './tenant-db.js';

const MAX_BATCH = 64;

interface Pending<I, R> {
  item: I;
  resolve: (result: R) => void;
  reject: (error: unknown) => void;
}

/**
 * Gathers the writes of one tenant context made in the same turn of the event loop (up to 64) and
 * runs them as one statement in one transaction: under a burst, writes of one tenant share a
 * commit instead of paying a transaction each (webhook deliveries, notification sends, claims and
 * attempt records). Each caller gets its own
 * result; a failed batch fails each of its callers (their work items are then redelivered).
 */
export class TenantBatcher<I, R> {
  private readonly pending = new Map<string, { ctx: TenantContext; items: Pending<I, R>[] }>();
  private scheduled = false;

  constructor(private readonly run: (ctx: TenantContext, items: I[]) => Promise<R[]>) {}

  submit(ctx: TenantContext, item: I): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      const key = `${ctx.tenantId}/${ctx.environmentId}/${ctx.scopeId ?? ''}`;
      const group = this.pending.get(key) ?? { ctx, items: [] };
      group.items.push({ item, resolve, reject });
      this.pending.set(key, group);
      if (group.items.length >= MAX_BATCH) {
        this.pending.delete(key);
        void this.flushGroup(group);
      } else if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    const groups = [...this.pending.values()];
    this.pending.clear();
    for (const group of groups) void this.flushGroup(group);
  }

  private async flushGroup(group: { ctx: TenantContext; items: Pending<I, R>[] }): Promise<void> {
    try {
      const results = await this.run(
        group.ctx,
        group.items.map((p) => p.item),
      );
      group.items.forEach((p, i) => p.resolve(results[i]));
    } catch (error) {
      for (const p of group.items) p.reject(error);
    }
  }
}
