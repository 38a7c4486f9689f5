import { ALLOWED_FUNCTIONS, ALLOWED_NODES, ALLOWED_SQL_VALUE_FUNCTIONS, ALLOWED_TYPES, NODE_LABELS, PARSER_GENERATED_FUNCTIONS } from './query-policy.js';

/** A query refused before it runs; `location` is libpg-query's byte offset into the query text. */
export class QueryRefusal extends Error {
  constructor(
    message: string,
    readonly location?: number,
  ) {
    super(message);
    this.name = 'QueryRefusal';
  }
}

type Json = Record<string, unknown>;

/** A name in FROM that is not a CTE: a data table or a platform view, rewritten before running. */
export interface RelationRef {
  /** The `{ RangeVar: … }` wrapper object, replaced in place by the rewrite. */
  container: Json;
  name: string;
  location?: number;
}

export interface Analysis {
  relations: RelationRef[];
  /** Highest `$n` used. */
  maxParam: number;
}

/**
 * `user`: the query as the client wrote it: relation names must be unqualified.
 * `rewritten`: the re-parsed result of our own rewrite: relations must be the physical tables
 * and views the rewrite put there (a check that the deparser said what the AST meant).
 */
export type AnalysisMode = { kind: 'user' } | { kind: 'rewritten'; physical: ReadonlySet<string>; views: ReadonlySet<string> };

const MAX_DEPTH = 1000;

const str = (node: unknown): string => (node as { String?: { sval?: string } } | null)?.String?.sval ?? '';
const names = (list: unknown): string[] => (Array.isArray(list) ? list.map(str) : []);
const locationOf = (body: Json): number | undefined => (typeof body.location === 'number' && body.location >= 0 ? body.location : undefined);

function isWrapped(value: Json): string | undefined {
  const keys = Object.keys(value);
  if (keys.length !== 1 || !/^[A-Z]/.test(keys[0])) return undefined;
  const inner = value[keys[0]];
  return inner !== null && typeof inner === 'object' && !Array.isArray(inner) ? keys[0] : undefined;
}

/**
 * Walks one statement's AST (as libpg-query returns it) and refuses anything that is not a plain
 * SELECT over names, operators, allowlisted functions and casts. Collects the relation names
 * to rewrite, tracking CTE scope exactly as PostgreSQL resolves it: a WITH item sees the items
 * before it (all of them under RECURSIVE), the statement body sees all.
 */
export function analyzeStatement(stmt: unknown, mode: AnalysisMode): Analysis {
  const walker = new Walker(mode);
  const type = stmt && typeof stmt === 'object' ? isWrapped(stmt as Json) : undefined;
  if (type !== 'SelectStmt') {
    const label = type ? (NODE_LABELS[type] ?? type.replace(/Stmt$/, '').toUpperCase()) : 'an empty statement';
    throw new QueryRefusal(`only a single SELECT statement is allowed (got ${label})`, 0);
  }
  walker.node(stmt, new Set(), 0);
  return { relations: walker.relations, maxParam: walker.maxParam };
}

class Walker {
  readonly relations: RelationRef[] = [];
  maxParam = 0;

  constructor(private readonly mode: AnalysisMode) {}

  node(value: unknown, scope: ReadonlySet<string>, depth: number): void {
    if (depth > MAX_DEPTH) throw new QueryRefusal('the query is nested too deeply');
    if (Array.isArray(value)) {
      for (const item of value) this.node(item, scope, depth + 1);
      return;
    }
    if (value === null || typeof value !== 'object') return;
    const object = value as Json;
    const type = isWrapped(object);
    if (type) {
      this.typed(type, object[type] as Json, object, scope, depth + 1);
      return;
    }
    // An unwrapped struct (Alias, TypeName, WindowDef, a constant's value): its fields may hold nodes.
    if (Array.isArray(object.names) && 'typemod' in object) this.typeName(object);
    for (const key of Object.keys(object)) this.node(object[key], scope, depth + 1);
  }

  private children(body: Json, scope: ReadonlySet<string>, depth: number, skip: readonly string[] = []): void {
    for (const key of Object.keys(body)) if (!skip.includes(key)) this.node(body[key], scope, depth + 1);
  }

  private typed(type: string, body: Json, container: Json, scope: ReadonlySet<string>, depth: number): void {
    if (!ALLOWED_NODES.has(type)) {
      const label = NODE_LABELS[type] ?? type.replace(/Stmt$/, '').toUpperCase();
      throw new QueryRefusal(`${label} is not allowed`, locationOf(body));
    }
    switch (type) {
      case 'SelectStmt':
        return this.select(body, scope, depth);
      case 'RangeVar':
        return this.rangeVar(body, container, scope);
      case 'FuncCall':
        this.funcCall(body);
        return this.children(body, scope, depth, ['funcname']);
      case 'TypeCast':
        if (body.typeName && typeof body.typeName === 'object') this.typeName(body.typeName as Json);
        return this.node(body.arg, scope, depth + 1);
      case 'TypeName':
        this.typeName(body);
        return this.children(body, scope, depth, ['names']);
      case 'ColumnRef':
        if (Array.isArray(body.fields) && body.fields.length > 2) throw new QueryRefusal('schema-qualified names are not allowed', locationOf(body));
        return this.children(body, scope, depth);
      case 'SQLValueFunction':
        if (!ALLOWED_SQL_VALUE_FUNCTIONS.has(String(body.op))) {
          const what = String(body.op)
            .replace(/^SVFOP_/, '')
            .replace(/_N$/, '');
          throw new QueryRefusal(`${what} is not allowed (it reads session settings)`, locationOf(body));
        }
        return;
      case 'A_Expr':
        if (names(body.name).length > 1) throw new QueryRefusal('schema-qualified operators are not allowed', locationOf(body));
        return this.children(body, scope, depth, ['name']);
      case 'SortBy':
        if (names(body.useOp).length > 1) throw new QueryRefusal('schema-qualified operators are not allowed', locationOf(body));
        return this.children(body, scope, depth, ['useOp']);
      case 'CollateClause':
        if (names(body.collname).length > 1) throw new QueryRefusal('schema-qualified names are not allowed', locationOf(body));
        return this.node(body.arg, scope, depth + 1);
      case 'ParamRef': {
        const n = typeof body.number === 'number' ? body.number : 0;
        this.maxParam = Math.max(this.maxParam, n);
        return;
      }
      case 'CommonTableExpr':
        // Reached only through select(), which checks and scopes WITH items itself.
        throw new QueryRefusal('WITH is allowed only at the start of a SELECT', locationOf(body));
      default:
        return this.children(body, scope, depth);
    }
  }

  private select(body: Json, scope: ReadonlySet<string>, depth: number): void {
    if (body.intoClause) {
      const rel = (body.intoClause as { rel?: Json }).rel;
      throw new QueryRefusal('SELECT … INTO is not allowed', rel ? locationOf(rel) : undefined);
    }
    if (Array.isArray(body.lockingClause) && body.lockingClause.length) throw new QueryRefusal('FOR UPDATE/SHARE is not allowed');
    let inner = scope;
    const withClause = body.withClause as { ctes?: unknown[]; recursive?: boolean } | undefined;
    if (withClause) {
      const ctes = (withClause.ctes ?? []).map((c) => {
        const cte = (c as { CommonTableExpr?: Json }).CommonTableExpr;
        if (!cte) throw new QueryRefusal('WITH holds something other than a query');
        return cte;
      });
      const cteNames = ctes.map((c) => (typeof c.ctename === 'string' ? c.ctename : ''));
      ctes.forEach((cte, i) => {
        const query = cte.ctequery as Json | undefined;
        if (!query || isWrapped(query) !== 'SelectStmt') {
          const type = query ? isWrapped(query) : undefined;
          const label = type ? (NODE_LABELS[type] ?? type) : 'a statement';
          throw new QueryRefusal(`data-modifying statements in WITH are not allowed (got ${label})`, locationOf(cte));
        }
        const visible = new Set([...scope, ...(withClause.recursive ? cteNames : cteNames.slice(0, i))]);
        this.node(query, visible, depth + 1);
        this.children(cte, visible, depth, ['ctequery', 'ctename']);
      });
      inner = new Set([...scope, ...cteNames]);
    }
    this.children(body, inner, depth, ['withClause']);
  }

  private rangeVar(body: Json, container: Json, scope: ReadonlySet<string>): void {
    const relname = typeof body.relname === 'string' ? body.relname : '';
    const location = locationOf(body);
    if (body.catalogname) throw new QueryRefusal('schema-qualified names are not allowed', location);
    if (this.mode.kind === 'user') {
      if (body.schemaname)
        throw new QueryRefusal(
          `schema-qualified names are not allowed ('${typeof body.schemaname === 'string' ? body.schemaname : '?'}.${relname}')`,
          location,
        );
      if (scope.has(relname)) return;
      this.relations.push({ container, name: relname, location });
      return;
    }
    const schema = typeof body.schemaname === 'string' ? body.schemaname : '';
    if (!schema && scope.has(relname)) return;
    if (schema === 'storage_data' && this.mode.physical.has(relname)) return;
    if (schema === 'query' && this.mode.views.has(relname)) return;
    throw new QueryRefusal('the query could not be verified after rewriting');
  }

  private funcCall(body: Json): void {
    const parts = names(body.funcname);
    const location = locationOf(body);
    let name: string;
    if (parts.length === 1) name = parts[0];
    else if (parts.length === 2 && parts[0] === 'pg_catalog' && (body.funcformat === 'COERCE_SQL_SYNTAX' || PARSER_GENERATED_FUNCTIONS.has(parts[1])))
      name = parts[1];
    else throw new QueryRefusal(`schema-qualified names are not allowed ('${parts.join('.')}')`, location);
    if (!ALLOWED_FUNCTIONS.has(name) && !PARSER_GENERATED_FUNCTIONS.has(name)) throw new QueryRefusal(`function ${name}() is not allowed`, location);
  }

  private typeName(body: Json): void {
    const parts = names(body.names);
    const location = locationOf(body);
    let name: string | undefined;
    if (parts.length === 1) name = parts[0];
    else if (parts.length === 2 && parts[0] === 'pg_catalog') name = parts[1];
    if (!name || body.pct_type || body.setof) throw new QueryRefusal(`type ${parts.join('.')} is not allowed`, location);
    if (!ALLOWED_TYPES.has(name)) throw new QueryRefusal(`type ${name} is not allowed`, location);
  }
}
