import { describe, expect, it } from '@jest/globals';
import { applyTenantRls, dropTenantRlsStatements, tenantRlsStatements } from './rls.js';

const TENANT_SETTING = "NULLIF(current_setting('app.tenant_id', true), '')::uuid";
const ENV_SETTING = "NULLIF(current_setting('app.env_id', true), '')::uuid";
const SCOPE_MATCH = "scope_id = NULLIF(current_setting('app.scope_id', true), '')::uuid";

/** Splits `CREATE POLICY … USING (…) WITH CHECK (…)` into its two expressions. */
function clauses(policy: string): { using: string; check: string } {
  const match = /USING \((.*)\) WITH CHECK \((.*)\)$/.exec(policy);
  if (!match) throw new Error(`not a policy statement: ${policy}`);
  return { using: match[1], check: match[2] };
}

describe('tenantRlsStatements', () => {
  it('enables and forces RLS, then creates the policy', () => {
    const statements = tenantRlsStatements('run.executions');
    expect(statements).toHaveLength(3);
    expect(statements[0]).toBe('ALTER TABLE run.executions ENABLE ROW LEVEL SECURITY');
    expect(statements[1]).toBe('ALTER TABLE run.executions FORCE ROW LEVEL SECURITY');
    expect(statements[2].startsWith('CREATE POLICY tenant_isolation ON run.executions USING (')).toBe(true);
  });

  it('compares tenant and environment with NULLIF(current_setting(...)) so an unset context matches nothing', () => {
    const { using, check } = clauses(tenantRlsStatements('runs')[2]);
    const tenant = `tenant_id = ${TENANT_SETTING} AND environment_id = ${ENV_SETTING}`;
    expect(using).toBe(tenant);
    expect(check).toBe(tenant);
    expect(using).not.toContain('scope_id');
  });

  it('uses a custom policy name', () => {
    expect(tenantRlsStatements('runs', { policyName: 'runs_isolation' })[2]).toMatch(/^CREATE POLICY runs_isolation ON runs /);
  });

  it("with scope 'owned' limits reads and writes to the scope's rows", () => {
    const { using, check } = clauses(tenantRlsStatements('runs', { scope: 'owned' })[2]);
    expect(using).toContain(SCOPE_MATCH);
    expect(using).toContain("current_setting('app.scope_id', true) IS NULL");
    expect(using).not.toContain('scope_id IS NULL');
    expect(check).toBe(using);
  });

  it("with scope 'shared' reads tenant-wide rows through a SELECT-only policy, and writes only the scope's rows", () => {
    const statements = tenantRlsStatements('runs', { scope: 'shared' });
    expect(statements).toHaveLength(4);
    const { using, check } = clauses(statements[2]);
    expect(using).not.toContain('scope_id IS NULL');
    expect(using).toContain(SCOPE_MATCH);
    expect(check).toBe(using);
    expect({ using, check }).toEqual(clauses(tenantRlsStatements('runs', { scope: 'owned' })[2]));
    expect(statements[3]).toMatch(/^CREATE POLICY tenant_isolation_shared_read ON runs FOR SELECT USING \(.*scope_id IS NULL\)$/);
  });

  it("treats scope 'none' like no scope option", () => {
    expect(tenantRlsStatements('runs', { scope: 'none' })).toEqual(tenantRlsStatements('runs'));
  });

  it.each(['x; drop table y', '"quoted"', 'Runs', 'run.Executions', '1runs', 'a.b.c', '', 'runs ', 'run-s'])('rejects the table name %j', (table) => {
    expect(() => tenantRlsStatements(table)).toThrow(/Not a plain table name/);
  });
});

describe('dropTenantRlsStatements', () => {
  it('drops the policies (the shared-read one too) and turns RLS off', () => {
    expect(dropTenantRlsStatements('run.executions')).toEqual([
      'DROP POLICY IF EXISTS tenant_isolation_shared_read ON run.executions',
      'DROP POLICY IF EXISTS tenant_isolation ON run.executions',
      'ALTER TABLE run.executions NO FORCE ROW LEVEL SECURITY',
      'ALTER TABLE run.executions DISABLE ROW LEVEL SECURITY',
    ]);
  });

  it('uses a custom policy name', () => {
    expect(dropTenantRlsStatements('runs', 'runs_isolation').slice(0, 2)).toEqual([
      'DROP POLICY IF EXISTS runs_isolation_shared_read ON runs',
      'DROP POLICY IF EXISTS runs_isolation ON runs',
    ]);
  });

  it.each(['x; drop table y', '"quoted"', 'Runs'])('rejects the table name %j', (table) => {
    expect(() => dropTenantRlsStatements(table)).toThrow(/Not a plain table name/);
  });
});

describe('applyTenantRls', () => {
  it('runs the three statements in order', async () => {
    const ran: string[] = [];
    await applyTenantRls({ query: (sql: string) => Promise.resolve(ran.push(sql)) }, 'runs', { scope: 'owned' });
    expect(ran).toEqual(tenantRlsStatements('runs', { scope: 'owned' }));
  });

  it('runs nothing for an invalid table name', async () => {
    const ran: string[] = [];
    await expect(applyTenantRls({ query: (sql: string) => Promise.resolve(ran.push(sql)) }, 'x; drop table y')).rejects.toThrow(/Not a plain table name/);
    expect(ran).toEqual([]);
  });
});
