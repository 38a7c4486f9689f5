import { Inject, Injectable } from '@nestjs/common';
import { TenantDb, type TenantContext } from '@platform/db';
import type { DataQueryResponse } from '@platform/messaging';
import { physicalTable } from '../data-table.record.js';
import { dataTablesRepository } from '../data-tables.repository.js';
import { DATA_CONFIG, type DataConfig } from '../data.config.js';
import { DataErrors } from '../data.errors.js';
import { executeQuery, restrictTransaction } from './query-executor.js';
import { parseUserQuery, rewrite } from './query-rewriter.js';
import { existingViews, isPlatformView } from './platform-views.js';

/** A parameter value as bound: JSON scalars as they are, arrays as PostgreSQL arrays, objects as JSON. */
function bindable(params: unknown[]): unknown[] {
  return params.map((value, i) => {
    if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) {
      if (typeof value === 'number' && !Number.isFinite(value)) throw DataErrors.params(`[${i}] must be a finite number`);
      if (typeof value === 'string' && value.includes('\u0000')) throw DataErrors.params(`[${i}] must not contain NUL characters`);
      return value;
    }
    if (Array.isArray(value)) {
      if (!value.every((v) => v === null || ['string', 'number', 'boolean'].includes(typeof v))) {
        throw DataErrors.params(`[${i}] an array parameter must hold only strings, numbers, booleans and nulls`);
      }
      return value as unknown[];
    }
    return JSON.stringify(value);
  });
}

/**
 * `POST /v1/data/query` and the `data.query` workflow step. Checked before it runs (parser
 * allowlists, names resolved to the caller's own tables through the catalogue under RLS), then
 * run read only, with a time, row and size limit, in the caller's tenant transaction, where RLS
 * confines it again whatever the check missed.
 */
@Injectable()
export class DataQueryService {
  constructor(
    private readonly db: TenantDb,
    @Inject(DATA_CONFIG) private readonly config: DataConfig,
  ) {}

  async query(ctx: TenantContext, query: string, params: unknown[] = []): Promise<DataQueryResponse> {
    const parsed = await parseUserQuery(query);
    const used = parsed.analysis.maxParam;
    if (used > params.length) throw DataErrors.query(`the query uses $${used} but params holds ${params.length} value(s)`);
    // PostgreSQL refuses surplus values at the protocol level; say so plainly instead.
    if (params.length > used)
      throw DataErrors.params(
        `holds ${params.length} value(s) but the query uses ${used === 0 ? 'no parameters' : used === 1 ? 'only $1' : `only $1…$${used}`}`,
      );
    const values = bindable(params);
    const names = [...new Set(parsed.analysis.relations.map((r) => r.name))];
    return this.db.run(ctx, async (m) => {
      await restrictTransaction(m, this.config.DATA_QUERY_TIMEOUT_MS);
      const tables = new Map((await dataTablesRepository.byNames(m, names)).map((t) => [t.name, t]));
      const wantedViews = names.filter((n) => !tables.has(n) && isPlatformView(n));
      const views = await existingViews(m, wantedViews);
      for (const view of wantedViews) {
        if (!views.has(view)) throw DataErrors.query(`the platform view '${view}' is not available yet`);
      }
      const sql = await rewrite(query, parsed, { tables, views });
      // Database messages name relations by what ran; show the client its own table names.
      const physical = new Map([...tables.values()].map((t) => [physicalTable(t.id), t.name]));
      const scrub = (message: string) => message.replace(/(?:storage_data\.)?"?(t_[0-9a-f]{32})"?/g, (whole, name: string) => physical.get(name) ?? 'table');
      return executeQuery(
        m,
        sql,
        values,
        { timeoutMs: this.config.DATA_QUERY_TIMEOUT_MS, maxRows: this.config.DATA_QUERY_MAX_ROWS, maxBytes: this.config.DATA_QUERY_MAX_BYTES },
        scrub,
      );
    });
  }
}
