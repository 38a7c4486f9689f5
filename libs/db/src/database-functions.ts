import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { enterTenantFunctionStatements } from './tenant-functions.js';

/**
 * A database function's one source: `apps/<svc>/src/<feature>/sql/<name>.sql` holds the current
 * text of the function `<schema>.<name>` and nothing else. Migrations keep tables, indexes,
 * row-level security and data moves; `npm run check` fails if one defines a function.
 */
export interface DatabaseFunction {
  name: string;
  /** Where the text came from, for error messages: `<feature>/sql/<name>.sql`. */
  file: string;
  sql: string;
}

const NAME = /^[a-z_][a-z0-9_]*$/;

/** Every `<feature>/sql/<name>.sql` below `root` (an app's src, or its build output), by name. */
export function databaseFunctions(root: string): DatabaseFunction[] {
  const found: DatabaseFunction[] = [];
  const walk = (dir: string, rel: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      const relPath = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(path, relPath);
      else if (entry.name.endsWith('.sql') && basename(dir) === 'sql') {
        const name = entry.name.slice(0, -'.sql'.length);
        if (!NAME.test(name)) throw new Error(`${relPath}: a function file is named after its function, in lower case`);
        found.push({ name, file: relPath, sql: readFileSync(path, 'utf8') });
      }
    }
  };
  walk(root, '');
  return found.sort((a, b) => a.name.localeCompare(b.name));
}

type Query = (sql: string, parameters?: unknown[]) => Promise<Array<Record<string, unknown>>>;

async function overloads(query: Query, schema: string, name: string): Promise<Array<{ oid: number; signature: string }>> {
  const rows = await query(
    `select p.oid::int as oid, p.oid::regprocedure::text as signature from pg_proc p where p.pronamespace = $1::regnamespace and p.proname = $2`,
    [schema, name],
  );
  return rows as Array<{ oid: number; signature: string }>;
}

/**
 * Applies a service's functions inside the caller's transaction (the one its migrations ran in):
 * `create or replace` keeps an unchanged signature's grants and callers' plans; a changed return
 * type is dropped and created again; a changed parameter list creates a new function, and the
 * old one is dropped, so exactly one `<schema>.<name>` remains. A schema with functions also gets
 * its `enter_tenant` (libs/db tenant-functions.ts) first.
 */
export async function applyDatabaseFunctions(query: Query, schema: string, functions: readonly DatabaseFunction[]): Promise<void> {
  if (!functions.length) return;
  for (const statement of enterTenantFunctionStatements(schema)) await query(statement);
  for (const fn of functions) {
    const before = await overloads(query, schema, fn.name);
    const drop = async (stale: typeof before) => {
      for (const old of stale) await query(`drop function ${old.signature}`);
    };
    await query('savepoint database_function');
    try {
      await query(fn.sql);
      await query('release savepoint database_function');
    } catch (error) {
      await query('rollback to savepoint database_function');
      // 42P13 invalid_function_definition: the return type or a parameter's name changed.
      if ((error as { code?: string }).code !== '42P13') throw new Error(`${fn.file}: ${(error as Error).message}`, { cause: error });
      await drop(before);
      await query(fn.sql);
    }
    const after = await overloads(query, schema, fn.name);
    if (!after.length) throw new Error(`${fn.file} does not define ${schema}.${fn.name}`);
    const fresh = after.filter((a) => !before.some((b) => b.oid === a.oid));
    if (fresh.length) await drop(after.filter((a) => !fresh.includes(a)));
    else if (after.length > 1)
      throw new Error(`${schema}.${fn.name} has ${after.length} overloads (${after.map((a) => a.signature).join('; ')}); ${fn.file} must define exactly one`);
  }
}
