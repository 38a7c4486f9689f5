import pg from 'pg';
import { countIo } from '@platform/common';
import { statementsIn } from './sql-statements.js';

type Query = (this: pg.Client, ...args: unknown[]) => unknown;

/**
 * The pg client the pools use while PLATFORM_IO_COUNTERS is on: every query of the process passes
 * here (TypeORM's query runners, TenantDb.call through the pool, prepared statements), so it is
 * the one place that counts round trips and statements. pg sends one query at a time per
 * connection (no pipelining): one `query` call is one round trip.
 */
export class CountingClient extends pg.Client {}

// Looked up at each call, not kept: the pg instrumentation (tracing) wraps pg.Client's `query` after this module is loaded.
const query = (): Query => Object.getOwnPropertyDescriptor(pg.Client.prototype, 'query')?.value as Query;
// Defined on the subclass's prototype rather than declared as an override: `query` has a dozen overloads.
Object.defineProperty(CountingClient.prototype, 'query', {
  value: function (this: pg.Client, ...args: unknown[]): unknown {
    countIo('db.roundTrips');
    countIo('db.statements', statementCount(args[0], args[1]));
    return query().apply(this, args);
  },
  writable: true,
  configurable: true,
});

/** A text without parameters goes by the simple protocol and may hold several statements. */
function statementCount(config: unknown, values: unknown): number {
  if (typeof config === 'string') return Array.isArray(values) && values.length ? 1 : statementsIn(config);
  const c = config as { text?: unknown; name?: unknown; values?: unknown[] } | null;
  if (!c || typeof c.text !== 'string' || c.name || c.values?.length) return 1;
  return statementsIn(c.text);
}
