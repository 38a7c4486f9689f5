import pg from 'pg';

type Query = (this: pg.Client, ...args: unknown[]) => unknown;
type ClientClass = typeof pg.Client;

/**
 * A pg client class that sends every named (prepared) statement unnamed: the same text and
 * values, parsed again on each call instead of once per connection. For DATABASE_PREPARED_STATEMENTS
 * =false, behind a pooler in transaction mode (PgBouncer before 1.21), where consecutive
 * transactions of one client land on different server connections, so a statement prepared on
 * one is missing on the next ("prepared statement … does not exist"). The pools use pg's own
 * client otherwise: the hot path is untouched.
 */
export function withoutStatementNames(Base: ClientClass = pg.Client): ClientClass {
  class UnnamedStatementsClient extends Base {}
  // The base's own query (pg's, or the counting client's), looked up through its prototype chain.
  const inherited = (Base.prototype as unknown as { query: Query }).query;
  // Defined on the prototype rather than declared as an override: `query` has a dozen overloads.
  Object.defineProperty(UnnamedStatementsClient.prototype, 'query', {
    value: function (this: pg.Client, ...args: unknown[]): unknown {
      args[0] = unnamed(args[0]);
      return inherited.apply(this, args);
    },
    writable: true,
    configurable: true,
  });
  return UnnamedStatementsClient;
}

/** A plain query config without its `name`; anything else (a text, a Submittable) as it is. */
export function unnamed(config: unknown): unknown {
  if (config === null || typeof config !== 'object') return config;
  const c = config as { name?: unknown; submit?: unknown };
  if (c.name === undefined || typeof c.submit === 'function') return config;
  const { name: _name, ...rest } = c;
  return rest;
}
