import type pg from 'pg';

/** `CHECK ((status = ANY (ARRAY['a'::text, 'b'::text])))`, as PostgreSQL prints `check (status in ('a', 'b'))`. */
const ANY_OF = /^CHECK \(\((\w+) = ANY \(ARRAY\[(.*)\]\)\)\)$/;
/** `CHECK ((status = 'a'::text))`, as it prints a list of one. */
const ONE_OF = /^CHECK \(\((\w+) = ('(?:[^']|'')*'::text)\)\)$/;
const LITERAL = /'((?:[^']|'')*)'::text/g;

/**
 * The values the database lets a column hold, read from pg_catalog: an enum type's labels, or
 * the list of the one `check (column in (...))` constraint on that column alone. Null when
 * neither holds the column to a list. A check of another shape on the column, or more than one,
 * throws: a test must then say what the column allows rather than have it guessed.
 */
export async function allowedValues(client: pg.ClientBase, table: string, column: string): Promise<string[] | null> {
  const found = await client.query<{ type: string }>(
    `select format_type(atttypid, atttypmod) as type from pg_attribute where attrelid = $1::regclass and attname = $2 and attnum > 0 and not attisdropped`,
    [table, column],
  );
  if (found.rowCount !== 1) throw new Error(`${table} has no column ${column}`);
  const labels = await client.query<{ label: string }>(
    `select e.enumlabel as label from pg_attribute a join pg_enum e on e.enumtypid = a.atttypid
      where a.attrelid = $1::regclass and a.attname = $2 order by e.enumsortorder`,
    [table, column],
  );
  if (labels.rows.length) return labels.rows.map((r) => r.label);
  const checks = await client.query<{ name: string; definition: string }>(
    `select c.conname as name, pg_get_constraintdef(c.oid) as definition
       from pg_constraint c join pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
      where c.conrelid = $1::regclass and c.contype = 'c' and cardinality(c.conkey) = 1 and a.attname = $2`,
    [table, column],
  );
  if (checks.rows.length === 0) return null;
  if (checks.rows.length > 1) throw new Error(`${table}.${column} has ${checks.rows.length} check constraints: ${checks.rows.map((r) => r.name).join(', ')}`);
  const { name, definition } = checks.rows[0];
  const match = ANY_OF.exec(definition) ?? ONE_OF.exec(definition);
  if (!match || match[1] !== column) throw new Error(`${table}.${column}: check ${name} is not a list of values: ${definition}`);
  return [...match[2].matchAll(LITERAL)].map((m) => m[1].replace(/''/g, "'"));
}
