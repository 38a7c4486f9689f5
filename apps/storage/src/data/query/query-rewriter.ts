import { parse } from 'libpg-query';
import { deparse } from 'pgsql-deparser';
import { physicalTable, type DataTableRow } from '../data-table.record.js';
import { DataErrors } from '../data.errors.js';
import { QueryRefusal, analyzeStatement, type Analysis } from './query-analyzer.js';
import { PLATFORM_VIEWS } from './platform-views.js';

type Json = Record<string, unknown>;

interface ParseErrorLike {
  message?: string;
  sqlDetails?: { message?: string; cursorPosition?: number };
}

/** libpg-query locations are byte offsets; clients count characters from 1, as PostgreSQL does. */
export function characterPosition(query: string, byteOffset: number): number {
  const prefix = Buffer.from(query, 'utf8').subarray(0, Math.max(0, byteOffset)).toString('utf8');
  return [...prefix].length + 1;
}

export interface ParsedQuery {
  ast: { stmts: { stmt: unknown; stmt_location?: number }[] };
  analysis: Analysis;
}

/** Parses and checks the client's query: exactly one SELECT, nothing off the allowlists. */
export async function parseUserQuery(query: string): Promise<ParsedQuery> {
  if (!query.trim()) throw DataErrors.query('the query is empty');
  let ast: ParsedQuery['ast'];
  try {
    ast = (await parse(query)) as unknown as ParsedQuery['ast'];
  } catch (error) {
    const details = (error as ParseErrorLike).sqlDetails;
    const message = details?.message ?? (error as ParseErrorLike).message ?? 'the query could not be parsed';
    // cursorPosition counts characters from 0.
    throw DataErrors.query(message, typeof details?.cursorPosition === 'number' ? details.cursorPosition + 1 : undefined);
  }
  const statements = ast.stmts ?? [];
  if (statements.length === 0) throw DataErrors.query('the query is empty');
  if (statements.length > 1) {
    throw DataErrors.query('only one statement is allowed', characterPosition(query, statements[1].stmt_location ?? 0));
  }
  try {
    return { ast, analysis: analyzeStatement(statements[0].stmt, { kind: 'user' }) };
  } catch (error) {
    if (error instanceof QueryRefusal) {
      const at = error.location ?? statements[0].stmt_location;
      throw DataErrors.query(error.message, at === undefined ? undefined : characterPosition(query, at));
    }
    throw error;
  }
}

const quote = (identifier: string) => `"${identifier.replace(/"/g, '""')}"`;

/** The table as a subquery: user column names over generated physical ones; tenant columns hidden. */
const subqueries = new Map<string, Json>();

async function subqueryOf(table: DataTableRow): Promise<Json> {
  const physical = physicalTable(table.id);
  let template = subqueries.get(physical);
  if (!template) {
    const columns = ['"id"', '"created_at"', '"updated_at"', ...table.columns.map((c) => `${quote(c.physical)} AS ${quote(c.name)}`)];
    const result = (await parse(`SELECT ${columns.join(', ')} FROM storage_data.${quote(physical)}`)) as unknown as ParsedQuery['ast'];
    template = result.stmts[0].stmt as Json;
    // Definitions never change (no ALTER): a dropped table's id is never reused.
    if (subqueries.size >= 1000) subqueries.delete(subqueries.keys().next().value!);
    subqueries.set(physical, template);
  }
  return structuredClone(template);
}

export interface RewriteTargets {
  tables: Map<string, DataTableRow>;
  views: Set<string>;
}

/**
 * Replaces each data table name with a subquery over its physical table and each platform view
 * name with the view, deparses, and checks the result again from scratch: the SQL that runs is
 * the SQL that was checked, whatever the deparser did.
 */
export async function rewrite(query: string, parsed: ParsedQuery, targets: RewriteTargets): Promise<string> {
  const physical = new Set<string>();
  const views = new Set<string>();
  for (const ref of parsed.analysis.relations) {
    const body = ref.container.RangeVar as Json;
    const alias = (body.alias as Json | undefined) ?? { aliasname: ref.name };
    const table = targets.tables.get(ref.name);
    if (table) {
      delete ref.container.RangeVar;
      ref.container.RangeSubselect = { subquery: await subqueryOf(table), alias };
      physical.add(physicalTable(table.id));
      continue;
    }
    if (targets.views.has(ref.name)) {
      const target = PLATFORM_VIEWS[ref.name];
      ref.container.RangeVar = { ...body, schemaname: target.schema, relname: target.view, alias };
      views.add(target.view);
      continue;
    }
    throw DataErrors.query(`unknown table '${ref.name}'`, ref.location === undefined ? undefined : characterPosition(query, ref.location));
  }
  let sql: string;
  try {
    sql = await deparse(parsed.ast as never, { pretty: false });
  } catch {
    throw DataErrors.query('the query uses a construct that is not supported');
  }
  const again = (await parse(sql).catch(() => undefined)) as unknown as ParsedQuery['ast'] | undefined;
  try {
    if (!again || again.stmts.length !== 1) throw new QueryRefusal('the query could not be verified after rewriting');
    const check = analyzeStatement(again.stmts[0].stmt, { kind: 'rewritten', physical, views });
    if (check.relations.length) throw new QueryRefusal('the query could not be verified after rewriting');
  } catch (error) {
    if (error instanceof QueryRefusal) throw DataErrors.query(error.message);
    throw error;
  }
  return sql;
}
