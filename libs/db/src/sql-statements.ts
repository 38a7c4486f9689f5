import { loadModule, parseSync } from 'libpg-query';

let loaded = false;

/**
 * Loads PostgreSQL's own parser (libpg-query, WASM) once. Statement counting runs inside pg's
 * synchronous `query` call, so the parser must be there before the first query is counted.
 */
export async function loadStatementParser(): Promise<void> {
  if (loaded) return;
  await loadModule();
  loaded = true;
}

/**
 * How many statements a query text holds: PostgreSQL's simple protocol runs a text of several
 * `;`-separated statements in one round trip (TenantDb.run opens its transaction that way). The
 * text is split by PostgreSQL's own parser, never by hand. A text it cannot parse (PostgreSQL will
 * refuse it too), or any text before the parser is loaded, counts as one.
 */
export function statementsIn(text: string): number {
  if (!loaded) return 1;
  try {
    return Math.max(1, parseSync(text).stmts?.length ?? 0);
  } catch {
    return 1;
  }
}
