import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { SystemDb, createDataSource } from '@platform/db';
import { createTestDatabase, type TestDatabase } from '@platform/testing';
import { RetentionJob } from '../src/executions/retention.job.js';
import { RunConfig } from '../src/config/run.config.js';

describe('execution retention', () => {
  let database: TestDatabase;
  let admin: pg.Client;
  let system: SystemDb;

  beforeAll(async () => {
    database = await createTestDatabase('retention');
    admin = new pg.Client(database.settings.admin);
    await admin.connect();
    system = new SystemDb(
      () => createDataSource({ connection: database.settings.system, schema: 'run', applicationName: 'retention-test', poolSize: 1 }),
      () => undefined,
    );
  });

  afterAll(async () => {
    await system?.close();
    await admin?.end();
    await database?.drop();
  });

  async function workflow(tenant: string, env: string, retentionDays?: number): Promise<string> {
    const id = randomUUID();
    await admin.query(`insert into run.workflows (tenant_id, environment_id, id, name, current_version) values ($1, $2, $3, 'w', 1)`, [tenant, env, id]);
    await admin.query(
      `insert into run.workflow_versions (tenant_id, environment_id, workflow_id, version, definition, name, status) values ($1, $2, $3, 1, $4, 'w', 'active')`,
      [tenant, env, id, JSON.stringify({ steps: [{ id: 't', type: 'transform' }], settings: retentionDays ? { retention_days: retentionDays } : {} })],
    );
    return id;
  }

  async function execution(tenant: string, env: string, workflowId: string, finishedDaysAgo: number | null): Promise<string> {
    const id = randomUUID();
    await admin.query(
      `insert into run.executions (tenant_id, environment_id, id, workflow_id, workflow_version, status, input, trigger_type, timeout_at, finished_at)
       values ($1, $2, $3, $4, 1, $5, '{}', 'api', now() + interval '1 hour', case when $6::int is null then null else now() - make_interval(days => $6) end)`,
      [tenant, env, id, workflowId, finishedDaysAgo === null ? 'waiting' : 'succeeded', finishedDaysAgo],
    );
    await admin.query(`insert into run.execution_logs (tenant_id, environment_id, id, execution_id, level, message) values ($1, $2, $3, $4, 'info', 'x')`, [
      tenant,
      env,
      randomUUID(),
      id,
    ]);
    await admin.query(
      `insert into run.execution_steps (tenant_id, environment_id, id, execution_id, path, step_id, type, status, attempt) values ($1, $2, $3, $4, 't', 't', 'transform', 'succeeded', 1)`,
      [tenant, env, randomUUID(), id],
    );
    return id;
  }

  it('prunes finished executions (with their steps and logs) past the retention period, per workflow when it sets one', async () => {
    const [tenant, env] = [randomUUID(), randomUUID()];
    const standard = await workflow(tenant, env);
    const short = await workflow(tenant, env, 2);
    await execution(tenant, env, standard, 40);
    const recent = await execution(tenant, env, standard, 5);
    const unfinished = await execution(tenant, env, standard, null);
    await execution(tenant, env, short, 3);
    const shortNew = await execution(tenant, env, short, 1);
    const config = Object.assign(new RunConfig(), { RUN_RETENTION_DAYS: 30 });
    const pruned = await new RetentionJob(system, config).prune();
    expect(pruned).toBe(2);
    const { rows } = await admin.query<{ id: string }>(`select id from run.executions where tenant_id = $1`, [tenant]);
    expect(rows.map((r) => r.id).sort()).toEqual([recent, unfinished, shortNew].sort());
    const logs = await admin.query<{ execution_id: string }>(`select execution_id from run.execution_logs where tenant_id = $1`, [tenant]);
    expect(logs.rows.map((r) => r.execution_id).sort()).toEqual([recent, unfinished, shortNew].sort());
    const steps = await admin.query<{ execution_id: string }>(`select execution_id from run.execution_steps where tenant_id = $1`, [tenant]);
    expect(steps.rows.map((r) => r.execution_id).sort()).toEqual([recent, unfinished, shortNew].sort());
  });
});
