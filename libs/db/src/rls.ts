/**
 * The standard tenant-isolation policy, written once so every migration gets it right.
 *
 * Policies compare columns with current_setting() directly: wrapping it in a VOLATILE function
 * would turn index scans into sequential scans. NULLIF(..., '') makes an unset context match
 * nothing (fail closed) instead of failing the cast: once a connection has run one tenant
 * transaction, the setting reads '' rather than NULL.
 */
export type ScopeMode =
  /** The table has no scope_id column: customers never own its rows. */
  | 'none'
  /** With a scope set, only that scope's rows are visible and writable. */
  | 'owned'
  /** With a scope set, rows of that scope and tenant-wide rows (scope_id null) are readable; only the scope's rows are writable or deletable. */
  | 'shared';

export interface TenantRlsOptions {
  scope?: ScopeMode;
  /** False for tenant-wide tables without environment_id (the tenant's environments, organizations, teams). */
  environment?: boolean;
  policyName?: string;
}

const IDENT = /^[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)?$/;

const setting = (name: string) => `NULLIF(current_setting('${name}', true), '')::uuid`;

const TENANT = `tenant_id = ${setting('app.tenant_id')} AND environment_id = ${setting('app.env_id')}`;
const SCOPE_UNSET = `current_setting('app.scope_id', true) IS NULL OR current_setting('app.scope_id', true) = ''`;
const SCOPE_MATCH = `scope_id = ${setting('app.scope_id')}`;

export function tenantRlsStatements(table: string, options: TenantRlsOptions = {}): string[] {
  if (!IDENT.test(table)) throw new Error(`Not a plain table name: ${table}`);
  const scope = options.scope ?? 'none';
  const policy = options.policyName ?? 'tenant_isolation';
  if (!/^[a-z_][a-z0-9_]*$/.test(policy)) throw new Error(`Not a plain policy name: ${policy}`);
  const tenant = options.environment === false ? `tenant_id = ${setting('app.tenant_id')}` : TENANT;
  const enable = [`ALTER TABLE ${table} ENABLE ROW LEVEL SECURITY`, `ALTER TABLE ${table} FORCE ROW LEVEL SECURITY`];
  if (scope === 'shared') {
    // Two permissive policies: reading sees the scope's rows and tenant-wide ones; writing
    // (insert, update, delete) only the scope's own, so a customer cannot change or delete
    // tenant-wide rows. SELECT applies both (OR); the other commands only the strict one.
    const strict = `${tenant} AND (${SCOPE_UNSET} OR ${SCOPE_MATCH})`;
    return [
      ...enable,
      `CREATE POLICY ${policy} ON ${table} USING (${strict}) WITH CHECK (${strict})`,
      `CREATE POLICY ${policy}_shared_read ON ${table} FOR SELECT USING (${tenant} AND scope_id IS NULL)`,
    ];
  }
  const using = scope === 'owned' ? `${tenant} AND (${SCOPE_UNSET} OR ${SCOPE_MATCH})` : tenant;
  return [...enable, `CREATE POLICY ${policy} ON ${table} USING (${using}) WITH CHECK (${using})`];
}

export function dropTenantRlsStatements(table: string, policyName = 'tenant_isolation'): string[] {
  if (!IDENT.test(table)) throw new Error(`Not a plain table name: ${table}`);
  if (!/^[a-z_][a-z0-9_]*$/.test(policyName)) throw new Error(`Not a plain policy name: ${policyName}`);
  return [
    `DROP POLICY IF EXISTS ${policyName}_shared_read ON ${table}`,
    `DROP POLICY IF EXISTS ${policyName} ON ${table}`,
    `ALTER TABLE ${table} NO FORCE ROW LEVEL SECURITY`,
    `ALTER TABLE ${table} DISABLE ROW LEVEL SECURITY`,
  ];
}

/** For use inside a TypeORM migration: `await applyTenantRls(queryRunner, 'run.executions')`. */
export async function applyTenantRls(runner: { query(sql: string): Promise<unknown> }, table: string, options?: TenantRlsOptions): Promise<void> {
  for (const sql of tenantRlsStatements(table, options)) await runner.query(sql);
}

export const RLS_AUDIT_SQL = `
  select n.nspname as schema, c.relname as table,
         c.relrowsecurity as enabled, c.relforcerowsecurity as forced,
         exists (select 1 from pg_policy p where p.polrelid = c.oid) as has_policy
    from pg_class c
    join pg_namespace n on n.oid = c.relnamespace
   where c.relkind in ('r', 'p')
     and n.nspname = any($1)
     and exists (select 1 from pg_attribute a
                  where a.attrelid = c.oid and a.attname = 'tenant_id' and not a.attisdropped)`;

export interface RlsAuditRow {
  schema: string;
  table: string;
  enabled: boolean;
  forced: boolean;
  has_policy: boolean;
}

/**
 * Tables with a tenant_id column that lack RLS enabled, forced or a policy. Tests assert it is
 * empty. Takes a TypeORM DataSource/QueryRunner (rows) or a pg client (`{ rows }`).
 */
export async function findTenantTablesWithoutRls(
  runner: { query(sql: string, params?: unknown[]): Promise<RlsAuditRow[] | { rows: RlsAuditRow[] }> },
  schemas: string[],
): Promise<RlsAuditRow[]> {
  const result = await runner.query(RLS_AUDIT_SQL, [schemas]);
  const rows = Array.isArray(result) ? result : result.rows;
  return rows.filter((r) => !r.enabled || !r.forced || !r.has_policy);
}
