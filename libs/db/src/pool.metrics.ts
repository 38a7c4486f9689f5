import type { DataSource } from 'typeorm';
import { gauge } from '@platform/common';

/** Which of a service's pools: the application role's (tenant work) or the system role's (SystemDb). */
export type PoolLabel = 'app' | 'system';

interface PgPoolCounts {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
  options?: { max?: number };
}

/** Data sources whose pools are reported, weakly held: a destroyed or dropped one simply stops counting. */
const watched = new Set<{ pool: PoolLabel; source: WeakRef<DataSource> }>();

function poolOf(source: DataSource): PgPoolCounts | undefined {
  if (!source.isInitialized) return undefined;
  return (source.driver as unknown as { master?: PgPoolCounts }).master;
}

/** Read at each scrape, summed over the process's pools of one kind. */
function eachPool(read: (pool: PoolLabel, counts: PgPoolCounts) => void): void {
  for (const entry of watched) {
    const source = entry.source.deref();
    if (!source) {
      watched.delete(entry);
      continue;
    }
    const counts = poolOf(source);
    if (counts) read(entry.pool, counts);
  }
}

gauge({
  name: 'db_pool_connections',
  help: 'PostgreSQL connections of the pool, by state: in_use (checked out by a query or transaction) and idle',
  labelNames: ['pool', 'state'] as const,
  collect() {
    this.reset();
    eachPool((pool, c) => {
      this.inc({ pool, state: 'in_use' }, c.totalCount - c.idleCount);
      this.inc({ pool, state: 'idle' }, c.idleCount);
    });
  },
});

gauge({
  name: 'db_pool_waiting',
  help: 'Queries and transactions waiting for a connection of the pool (the pool is exhausted while this is above 0)',
  labelNames: ['pool'] as const,
  collect() {
    this.reset();
    eachPool((pool, c) => this.inc({ pool }, c.waitingCount));
  },
});

gauge({
  name: 'db_pool_max',
  help: 'The pool size: connections the pool opens at most (DATABASE_POOL_SIZE for app)',
  labelNames: ['pool'] as const,
  collect() {
    this.reset();
    eachPool((pool, c) => this.inc({ pool }, c.options?.max ?? 0));
  },
});

/** Reports the data source's pool in `db_pool_*` once it is initialised. */
export function watchPool(source: DataSource, pool: PoolLabel): void {
  watched.add({ pool, source: new WeakRef(source) });
}
