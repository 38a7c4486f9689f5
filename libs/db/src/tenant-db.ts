import type { DataSource, EntityManager } from 'typeorm';
import type { PreparedStatement } from './prepared.js';
import { isUuid } from '@platform/common';

/** What row-level security needs to know about the caller. A Principal satisfies it. */
export interface TenantContext {
  tenantId: string;
  environmentId: string;
  /** Set for customer keys and tenant keys narrowed with X-Scope-Key. */
  scopeId?: string | null;
}

export class TenantContextError extends Error {
  constructor(field: string) {
    super(`Tenant context ${field} is not a UUID`);
    this.name = 'TenantContextError';
  }
}

export function assertTenantContext(ctx: TenantContext): void {
  if (!isUuid(ctx.tenantId)) throw new TenantContextError('tenantId');
  if (!isUuid(ctx.environmentId)) throw new TenantContextError('environmentId');
  if (ctx.scopeId != null && !isUuid(ctx.scopeId)) throw new TenantContextError('scopeId');
}

/**
 * The only way services touch tenant rows: one transaction whose first statement sets the RLS
 * context with set_config(..., true), i.e. local to the transaction. The setting dies with the
 * transaction, so a pooled connection never carries one tenant's context into another's work,
 * and the same holds behind a transaction-mode pooler such as PgBouncer.
 */
export interface TenantRunOptions {
  /**
   * Commit without waiting for the WAL flush (`synchronous_commit = off`, this transaction only).
   * A PostgreSQL crash may then lose the last few hundred milliseconds of such commits (never
   * corrupt them); a crash of the service loses nothing. For writes that are safe to redo, such
   * as an engine recording steps it would re-run anyway.
   */
  asyncCommit?: boolean;
}

interface PgPool {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
}

/**
 * A tenant function's parameters (libs/db tenant-functions.ts): the context first, then its own.
 * `TenantDb.call` uses it; so does a caller running the same function inside a transaction of its own.
 */
export function tenantFunctionValues(ctx: TenantContext, values: unknown[], asyncCommit = false): unknown[] {
  return [ctx.tenantId, ctx.environmentId, ctx.scopeId ?? null, asyncCommit, ...values];
}

export class TenantDb {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * One call of a function that sets the tenant context itself (see tenant-functions.ts), as a
   * prepared statement in its own transaction: one round trip. The context and the commit mode
   * are passed as the first four parameters, before `values`.
   */
  async call<R>(ctx: TenantContext, statement: PreparedStatement, values: unknown[], options: TenantRunOptions = {}): Promise<R[]> {
    assertTenantContext(ctx);
    const pool = (this.dataSource.driver as unknown as { master: PgPool }).master;
    const result = await pool.query({
      name: statement.name,
      text: statement.text,
      values: tenantFunctionValues(ctx, values, options.asyncCommit === true),
    });
    return result.rows as R[];
  }

  async run<T>(ctx: TenantContext, work: (manager: EntityManager) => Promise<T>, options: TenantRunOptions = {}): Promise<T> {
    assertTenantContext(ctx);
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    try {
      // One round trip opens the transaction and sets the context: a parameterless statement may
      // hold several commands. Inlining is safe here only because assertTenantContext admits
      // nothing but UUIDs, and the commit mode is one of two constants.
      await runner.query(
        `BEGIN; SELECT set_config('app.tenant_id', '${ctx.tenantId}', true), set_config('app.env_id', '${ctx.environmentId}', true), ` +
          `set_config('app.scope_id', '${ctx.scopeId ?? ''}', true), set_config('synchronous_commit', '${options.asyncCommit ? 'off' : 'on'}', true)`,
      );
      let result: T;
      try {
        result = await work(runner.manager);
      } catch (error) {
        await runner.query('ROLLBACK').catch(() => undefined);
        throw error;
      }
      await runner.query('COMMIT');
      return result;
    } finally {
      await runner.release();
    }
  }
}
