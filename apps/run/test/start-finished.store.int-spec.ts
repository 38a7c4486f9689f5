import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { storeHarness, type StoreHarness } from '@platform/testing';
import { executionsRepository } from '../src/executions/executions.repository.js';
import { arrangeWorkflow, countRows, newStart, otherTenant, readExecution } from './store-rows.js';

/**
 * The store tier of a start whose run was done before its row (engine/runner/pure-runs.ts):
 * run.start_finished on real PostgreSQL with the real migrations, called as the repository calls
 * it (a prepared statement through TenantDb.call, the application role under row-level security).
 * The workflow's current version is 2 (arrangeWorkflow).
 */
describe('executions store: a start with its run done ahead (run.start_finished)', () => {
  let h: StoreHarness;
  const lease = { worker: 'worker-b', leaseMs: 30_000 };

  beforeAll(async () => {
    h = await storeHarness(['run'], 'run_start_finished');
  });

  afterAll(async () => {
    await h?.close();
  });

  const began = new Date(Date.now() - 5_000);
  const step = (status: 'succeeded' | 'failed') => ({
    id: randomUUID(),
    path: 'a',
    step_id: 'a',
    type: 'transform',
    status,
    attempt: 1,
    input: { v: 1 },
    output: status === 'succeeded' ? { v: 2 } : null,
    error: status === 'failed' ? { code: 'expression_error', message: 'bad', step_id: 'a', final: true } : null,
    wake_at: null,
    started_at: began,
    finished_at: new Date(),
  });
  const log = { id: randomUUID(), step_id: 'a', level: 'info' as const, message: 'transform a succeeded', data: null, created_at: new Date() };
  const succeeded = { status: 'succeeded' as const, output: { v: 2 }, error: null };
  const failed = { status: 'failed' as const, error: { code: 'expression_error', message: 'bad', step_id: 'a' } };

  // from-state × event → to-state: what was written
  it.each([
    [
      'none',
      'start with a succeeded run of the current version',
      'succeeded',
      'the row settled with its output, its step and log, one usage row',
      2,
      succeeded,
    ],
    ['none', 'start with a failed run of the current version', 'failed', 'the row settled with its error, its step and log, one usage row', 2, failed],
  ] as const)('%s × %s → %s: %s', async (_from, _event, to, _written, version, settle) => {
    const ctx = h.tenant();
    const workflowId = await arrangeWorkflow(h.admin, ctx);
    const start = newStart(ctx, workflowId);

    const answered = await executionsRepository.startFinished(h.tenantDb, ctx, start, lease, {
      version,
      startedAt: began,
      steps: [step(to)],
      logs: [log],
      settle,
    });

    const row = await readExecution(h.admin, start.id);
    expect(answered).toMatchObject({ id: start.id, status: to, workflow_version: 2 });
    expect(row).toMatchObject({ status: to, lease_owner: null, lease_until: null, request_id: 'req-start' });
    // Accepted and begun when its first step began, before the row was made.
    expect([row!.created_at, row!.started_at]).toEqual([began, began]);
    expect(row!.finished_at!.getTime()).toBeGreaterThanOrEqual(began.getTime());
    if (to === 'succeeded') expect(row).toMatchObject({ output: { v: 2 }, error: null });
    else expect(row).toMatchObject({ output: null, error: failed.error });
    const steps = await h.admin.query(`select path, status, output from run.execution_steps where execution_id = $1`, [start.id]);
    expect(steps.rows).toEqual([{ path: 'a', status: to, output: to === 'succeeded' ? { v: 2 } : null }]);
    expect(await countRows(h.admin, ctx.tenantId)).toEqual({ executions: 1, steps: 1, logs: 1, usage: 1 });
  });

  it("none × start with a run of a version no longer current → running: the row under the worker's lease, nothing of the run written", async () => {
    const ctx = h.tenant();
    const workflowId = await arrangeWorkflow(h.admin, ctx);
    const start = newStart(ctx, workflowId);

    const answered = await executionsRepository.startFinished(h.tenantDb, ctx, start, lease, {
      version: 1,
      startedAt: began,
      steps: [step('succeeded')],
      logs: [log],
      settle: succeeded,
    });

    expect(answered).toMatchObject({ id: start.id, status: 'running', workflow_version: 2 });
    expect(await readExecution(h.admin, start.id)).toMatchObject({ status: 'running', lease_owner: lease.worker, output: null, finished_at: null });
    expect(await countRows(h.admin, ctx.tenantId)).toEqual({ executions: 1, steps: 0, logs: 0, usage: 1 });
  });

  it.each([
    ['none', 'start of a disabled workflow with a run done', 'none', 'nothing', { status: 'disabled' }],
    ['none', "start of another tenant's workflow with a run done", 'none', 'nothing, in either tenant', { otherTenant: true }],
  ] as const)('%s × %s → %s: %s', async (_from, _event, _to, _written, o) => {
    const ctx = h.tenant();
    const owner = 'otherTenant' in o ? otherTenant() : ctx;
    const workflowId = await arrangeWorkflow(h.admin, owner, 'otherTenant' in o ? {} : o);

    const answered = await executionsRepository.startFinished(h.tenantDb, ctx, newStart(ctx, workflowId), lease, {
      version: 2,
      startedAt: began,
      steps: [step('succeeded')],
      logs: [log],
      settle: succeeded,
    });

    expect(answered).toBeUndefined();
    expect(await countRows(h.admin, ctx.tenantId)).toEqual({ executions: 0, steps: 0, logs: 0, usage: 0 });
    expect(await countRows(h.admin, owner.tenantId)).toMatchObject({ executions: 0, steps: 0, usage: 0 });
  });
});
