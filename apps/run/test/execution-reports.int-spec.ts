import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import type { DataSource } from 'typeorm';
import { createDataSource, TenantDb } from '@platform/db';
import { createTestDatabase, type TestDatabase } from '@platform/testing';
import { RECENT_SQL, REPORT_SQL, reportsRepository } from '../src/reports/reports.repository.js';

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Relation Name'?: string;
  Plans?: PlanNode[];
}

const nodes = (plan: PlanNode): PlanNode[] => [plan, ...(plan.Plans ?? []).flatMap(nodes)];

/**
 * The portal's dashboard counts, on real PostgreSQL as the application role: the numbers match
 * the rows, and every statement reads executions through `executions_by_created`, never a
 * sequential scan, in a table holding many tenants.
 */
describe('execution reports', () => {
  let database: TestDatabase;
  let admin: pg.Client;
  let app: DataSource;
  let db: TenantDb;
  const tenant = { tenantId: randomUUID(), environmentId: randomUUID(), scopeId: null };
  const customer = randomUUID();
  const day = (offset: number) => new Date(Date.UTC(2026, 10, 10 + offset, 12));

  beforeAll(async () => {
    database = await createTestDatabase('run_reports');
    admin = new pg.Client(database.settings.admin);
    await admin.connect();
    app = createDataSource({ connection: database.settings.app, schema: 'run', applicationName: 'reports-int', poolSize: 2 });
    await app.initialize();
    db = new TenantDb(app);
    // Ten other tenants with 2,000 executions each, and ours with a known few.
    await admin.query(`insert into run.workflows (tenant_id, environment_id, id, name, current_version)
      select t, e, w, 'w', 1 from (select gen_random_uuid() t, gen_random_uuid() e, gen_random_uuid() w from generate_series(1, 10)) x`);
    await admin.query(`insert into run.workflow_versions (tenant_id, environment_id, workflow_id, version, definition, name, status)
      select tenant_id, environment_id, id, 1, '{"steps":[]}', 'w', 'active' from run.workflows`);
    await admin.query(`insert into run.executions (tenant_id, environment_id, id, workflow_id, workflow_version, status, input, trigger_type, timeout_at, created_at)
      select w.tenant_id, w.environment_id, gen_random_uuid(), w.id, 1, 'succeeded', '{}', 'api', now(), now() - make_interval(mins => g)
        from run.workflows w, generate_series(1, 2000) g`);
    const wf = [randomUUID(), randomUUID()];
    for (const id of wf) {
      await admin.query(`insert into run.workflows (tenant_id, environment_id, id, name, current_version) values ($1, $2, $3, 'w', 1)`, [
        tenant.tenantId,
        tenant.environmentId,
        id,
      ]);
      await admin.query(
        `insert into run.workflow_versions (tenant_id, environment_id, workflow_id, version, definition, name, status) values ($1, $2, $3, 1, '{"steps":[]}', 'w', 'active')`,
        [tenant.tenantId, tenant.environmentId, id],
      );
    }
    const rows: [string, string, Date, number, string | null][] = [
      [wf[0], 'succeeded', day(0), 1000, null],
      [wf[0], 'succeeded', day(0), 3000, customer],
      [wf[0], 'failed', day(1), 500, customer],
      [wf[1], 'failed', day(1), 8000, null],
      [wf[1], 'timed_out', day(1), 9000, null],
      [wf[1], 'running', day(2), 0, null],
      [wf[1], 'succeeded', day(9), 100, null], // outside the period asked for
    ];
    for (const [workflow, status, created, ms, scope] of rows) {
      await admin.query(
        `insert into run.executions (tenant_id, environment_id, id, scope_id, workflow_id, workflow_version, status, input, trigger_type, timeout_at, created_at, started_at, finished_at)
         values ($1, $2, $3, $4, $5, 1, $6, '{}', 'api', now(), $7, $7, case when $6 = 'running' then null else $7::timestamptz + make_interval(secs => $8::double precision / 1000) end)`,
        [tenant.tenantId, tenant.environmentId, randomUUID(), scope, workflow, status, created, ms],
      );
    }
    await admin.query('analyze run.executions');
  });

  afterAll(async () => {
    await app?.destroy();
    await admin?.end();
    await database?.drop();
  });

  const filter = (customerId: string | null = null) => ({ from: day(0), to: day(5), customerId, top: 5 });

  it('counts by day and status, the slowest and the most failing workflows of the period', async () => {
    const report = await db.run(tenant, (m) => reportsRepository.report(m, filter()));
    expect(report.total).toBe(6);
    expect(report.by_status).toEqual({ succeeded: 2, failed: 2, timed_out: 1, running: 1 });
    expect(report.by_day).toEqual([
      { date: '2026-11-10', status: 'succeeded', count: 2 },
      { date: '2026-11-11', status: 'failed', count: 2 },
      { date: '2026-11-11', status: 'timed_out', count: 1 },
      { date: '2026-11-12', status: 'running', count: 1 },
    ]);
    expect(report.slowest.map((s) => [s.finished, s.avg_ms, s.max_ms])).toEqual([
      [2, 8500, 9000],
      [3, 1500, 3000],
    ]);
    expect(report.most_failing.map((s) => [s.failed, s.total])).toEqual([
      [2, 3],
      [1, 3],
    ]);
    const mine = await db.run(tenant, (m) => reportsRepository.report(m, filter(customer)));
    expect(mine.by_status).toEqual({ succeeded: 1, failed: 1 });
    // Another tenant's context sees none of it.
    const other = await db.run({ ...tenant, tenantId: randomUUID() }, (m) => reportsRepository.report(m, filter()));
    expect(other.total).toBe(0);
  });

  it('plans the report as one index-only scan of executions_by_created', async () => {
    const plan = await db.run(tenant, async (m) => {
      const [row] = await m.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }[]>(`explain (format json) ${REPORT_SQL}`, [day(0), day(5), null]);
      return row['QUERY PLAN'][0].Plan;
    });
    const onExecutions = nodes(plan).filter((n) => n['Relation Name'] === 'executions');
    expect(onExecutions).toHaveLength(1);
    expect(onExecutions[0]['Node Type']).toMatch(/^Index (Only )?Scan$/);
    expect(onExecutions[0]['Index Name']).toBe('executions_by_created');
    process.stdout.write(`report: ${onExecutions.map((n) => `${n['Node Type']} using ${n['Index Name']}`).join(', ')}\n`);
  });

  it('lists recent executions newest first from an index of the tenant environment, never a sequential scan', async () => {
    const recent = await db.run(tenant, (m) => reportsRepository.recent(m, null, 3));
    expect(recent).toHaveLength(3);
    expect(recent.map((r) => r.id)).toEqual([...recent.map((r) => r.id)].sort().reverse());
    const plan = await db.run(tenant, async (m) => {
      const [row] = await m.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }[]>(`explain (format json) ${RECENT_SQL}`, [null, 50]);
      return row['QUERY PLAN'][0].Plan;
    });
    const all = nodes(plan);
    process.stdout.write(`recent: ${all.map((n) => `${n['Node Type']}${n['Index Name'] ? ` using ${n['Index Name']}` : ''}`).join(' > ')}\n`);
    // With few rows of its own the planner reads the tenant's by creation and sorts them; with many, executions_list in order.
    expect(all.some((n) => n['Node Type'] === 'Seq Scan')).toBe(false);
    expect(['executions_list', 'executions_by_created']).toContain(all.find((n) => n['Relation Name'] === 'executions')?.['Index Name']);
  });
});
