import type { EntityManager } from 'typeorm';

/**
 * A statement PostgreSQL parses and plans once per connection, then only binds and executes.
 * For the hot paths, where parsing, rewriting (RLS policies included) and planning cost more
 * than running the statement. The name must be unique to its text across the process.
 */
export interface PreparedStatement {
  readonly name: string;
  readonly text: string;
}

export function prepared(name: string, text: string): PreparedStatement {
  if (!/^[a-z][a-z0-9_.]{0,62}$/.test(name)) throw new Error(`prepared statement name "${name}" must be a short lowercase identifier`);
  const existing = registry.get(name);
  if (existing !== undefined && existing !== text) throw new Error(`prepared statement "${name}" is already defined with another text`);
  registry.set(name, text);
  return { name, text };
}
const registry = new Map<string, string>();

interface PgClient {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[]; rowCount: number | null }>;
}

/**
 * Runs a prepared statement on the connection of a manager bound to a transaction (the one
 * TenantDb.run and SystemDb.run hand out), so it sees the transaction and its RLS context.
 */
export async function execute<R = Record<string, unknown>>(
  m: EntityManager,
  statement: PreparedStatement,
  values: unknown[],
): Promise<{ rows: R[]; rowCount: number }> {
  const client = (m.queryRunner as unknown as { databaseConnection?: PgClient } | undefined)?.databaseConnection;
  if (!client) throw new Error('execute() needs the manager of a running transaction');
  const result = await client.query({ name: statement.name, text: statement.text, values });
  return { rows: result.rows as R[], rowCount: result.rowCount ?? 0 };
}
