import type { EntityManager } from 'typeorm';
import type { DataQueryResponse } from '@platform/messaging';
import { DataErrors } from '../data.errors.js';
import { answerParser, jsonValue, typeName, type TypeParser } from './query-result.js';

/** The slice of node-postgres' client this needs; the transaction's own connection. */
interface PgField {
  name: string;
  dataTypeID: number;
}
interface PgClient {
  query(config: {
    text: string;
    values?: unknown[];
    rowMode?: 'array';
    types?: { getTypeParser(oid: number, format?: string): TypeParser };
  }): Promise<{ rows: unknown[][]; fields: PgField[] }>;
  getTypeParser(oid: number, format?: string): TypeParser;
}

export interface QueryLimits {
  timeoutMs: number;
  maxRows: number;
  maxBytes: number;
}

/** Lost connections and shutdowns are the server's trouble (5xx); every other SQLSTATE is the query's (400). */
const SERVER_SIDE = /^(08|57P0[1-3]|53300)/;

async function clientOf(m: EntityManager): Promise<PgClient> {
  const runner = m.queryRunner as unknown as { connect(): Promise<PgClient> } | undefined;
  if (!runner) throw new Error('data queries run inside a tenant transaction');
  return runner.connect();
}

/**
 * Settings for the rest of the caller's tenant transaction: read only, the time limit, an empty
 * search_path (an unqualified name that escaped the rewrite resolves to nothing of ours), and
 * plans optimised for the whole result, not its first rows.
 */
export async function restrictTransaction(m: EntityManager, timeoutMs: number): Promise<void> {
  await m.query(
    `select set_config('transaction_read_only', 'on', true), set_config('statement_timeout', $1, true),
            set_config('search_path', '', true), set_config('cursor_tuple_fraction', '1', true)`,
    [String(timeoutMs)],
  );
}

function unique(names: string[]): string[] {
  const seen = new Map<string, number>();
  return names.map((name) => {
    const count = (seen.get(name) ?? 0) + 1;
    seen.set(name, count);
    return count === 1 ? name : `${name}_${count}`;
  });
}

/**
 * Runs checked SQL in the caller's (restricted) tenant transaction. The result is bounded in the
 * database, so a huge answer never reaches this process: a first statement learns the columns,
 * the second renames them c1…cN, keeps a running total of each row's size and returns NULLs for
 * rows past the byte limit, and stops after maxRows + 1 rows.
 */
export async function executeQuery(
  m: EntityManager,
  sql: string,
  params: unknown[],
  limits: QueryLimits,
  scrub: (message: string) => string,
): Promise<DataQueryResponse> {
  const client = await clientOf(m);
  try {
    const described = await client.query({ text: `SELECT * FROM (${sql}) AS q LIMIT 0`, values: params, rowMode: 'array' });
    const fields = described.fields;
    const names = unique(fields.map((f) => f.name));
    const columns = fields.map((f, i) => ({ name: names[i], type: typeName(f.dataTypeID) }));
    const aliases = fields.map((_, i) => `c${i + 1}`);
    const cap = Math.floor(limits.maxBytes);
    const text = aliases.length
      ? `SELECT ${aliases.map((a) => `CASE WHEN w."__total" <= ${cap} THEN w.${a} END`).join(', ')}, w."__total" > ${cap}
           FROM (SELECT q.*, sum(pg_column_size(q.*)) OVER (ROWS UNBOUNDED PRECEDING) AS "__total"
                   FROM (${sql}) AS q(${aliases.join(', ')})) AS w
          LIMIT ${limits.maxRows + 1}`
      : `SELECT false FROM (${sql}) AS q LIMIT ${limits.maxRows + 1}`;
    const parsers = new Map<number, TypeParser>();
    const result = await client.query({
      text,
      values: params,
      rowMode: 'array',
      types: {
        getTypeParser: (oid, format) => {
          let parser = parsers.get(oid);
          if (!parser) parsers.set(oid, (parser = answerParser(oid, (o) => client.getTypeParser(o, format))));
          return parser;
        },
      },
    });
    const rows: Record<string, unknown>[] = [];
    let bytes = 0;
    let truncated = false;
    for (const raw of result.rows) {
      const over = raw[raw.length - 1] === true;
      if (over || rows.length >= limits.maxRows) {
        truncated = true;
        break;
      }
      const row: Record<string, unknown> = {};
      for (let i = 0; i < names.length; i++) row[names[i]] = jsonValue(raw[i]);
      bytes += Buffer.byteLength(JSON.stringify(row), 'utf8');
      if (bytes > limits.maxBytes) {
        truncated = true;
        break;
      }
      rows.push(row);
    }
    return { columns, rows, row_count: rows.length, truncated };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && !SERVER_SIDE.test(code)) {
      const message = scrub((error as Error).message);
      throw DataErrors.queryFailed(code === '57014' ? `${message} (the limit is ${limits.timeoutMs} ms)` : message);
    }
    throw error;
  }
}
