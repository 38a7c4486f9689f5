import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { storeHarness, type StoreHarness } from '@platform/testing';
import { executionsRepository, finishedStartJson } from '../src/executions/executions.repository.js';
import { FinishedStarts } from '../src/executions/finished-starts.js';
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

  describe('several at once (run.start_finished_batch, FinishedStarts)', () => {
    const ran = (to: 'succeeded' | 'failed') => ({
      version: 2,
      startedAt: began,
      steps: [step(to)],
      logs: [{ ...log, id: randomUUID() }],
      settle: to === 'succeeded' ? succeeded : failed,
    });

    /** FinishedStarts with the size of each batch statement noted (a spy that calls through: each statement is the real one). */
    function countingStatements() {
      const batches = jest.spyOn(executionsRepository, 'startFinishedBatch');
      return {
        finished: new FinishedStarts(h.tenantDb),
        statements: () => batches.mock.calls.map((call) => call[2].length),
        restore: () => batches.mockRestore(),
      };
    }

    it("none × a batch of a succeeded run, a failed run, a disabled workflow's and another tenant's → each as alone: two rows settled, nothing for the refused two", async () => {
      const ctx = h.tenant();
      const other = otherTenant();
      const [active, disabled, foreign] = [
        await arrangeWorkflow(h.admin, ctx),
        await arrangeWorkflow(h.admin, ctx, { status: 'disabled' }),
        await arrangeWorkflow(h.admin, other),
      ];
      const starts = [
        { start: newStart(ctx, active), claim: lease, run: ran('succeeded') },
        { start: newStart(ctx, active), claim: lease, run: ran('failed') },
        { start: newStart(ctx, disabled), claim: lease, run: ran('succeeded') },
        { start: newStart(ctx, foreign), claim: lease, run: ran('succeeded') },
      ];

      const rows = await executionsRepository.startFinishedBatch(h.tenantDb, ctx, starts.map(finishedStartJson));

      expect(rows.map((r) => [r.id, r.status]).sort()).toEqual(
        [
          [starts[0].start.id, 'succeeded'],
          [starts[1].start.id, 'failed'],
        ].sort(),
      );
      expect(await readExecution(h.admin, starts[0].start.id)).toMatchObject({ status: 'succeeded', output: { v: 2 }, request_id: 'req-start' });
      expect(await readExecution(h.admin, starts[1].start.id)).toMatchObject({ status: 'failed', output: null, error: failed.error });
      expect(await countRows(h.admin, ctx.tenantId)).toEqual({ executions: 2, steps: 2, logs: 2, usage: 2 });
      expect(await countRows(h.admin, other.tenantId)).toEqual({ executions: 0, steps: 0, logs: 0, usage: 0 });
    });

    it('none × starts made in one turn → one statement for all; a second wave while it is in the database → the next one', async () => {
      const ctx = h.tenant();
      const workflowId = await arrangeWorkflow(h.admin, ctx);
      const { finished, statements, restore } = countingStatements();
      try {
        const first = Array.from({ length: 3 }, () => newStart(ctx, workflowId));
        const second = Array.from({ length: 2 }, () => newStart(ctx, workflowId));
        const firstWave = first.map((start) => finished.write(ctx, { start, claim: lease, run: ran('succeeded') }));
        await new Promise((resolve) => setImmediate(resolve));
        const secondWave = second.map((start) => finished.write(ctx, { start, claim: lease, run: ran('succeeded') }));
        const rows = await Promise.all([...firstWave, ...secondWave]);

        expect(rows.map((r) => r?.id)).toEqual([...first, ...second].map((s) => s.id));
        expect(rows.every((r) => r?.status === 'succeeded')).toBe(true);
        expect(statements()).toEqual([3, 2]);
        expect(await countRows(h.admin, ctx.tenantId)).toEqual({ executions: 5, steps: 5, logs: 5, usage: 5 });
      } finally {
        restore();
      }
    });

    it('none × a large start among small ones in one turn → written alone, the small ones in one statement', async () => {
      const ctx = h.tenant();
      const workflowId = await arrangeWorkflow(h.admin, ctx);
      const { finished, statements, restore } = countingStatements();
      try {
        const large = newStart(ctx, workflowId, { inputJson: JSON.stringify({ text: 'x'.repeat(100_000) }) });
        const small = [newStart(ctx, workflowId), newStart(ctx, workflowId)];
        const rows = await Promise.all([small[0], large, small[1]].map((start) => finished.write(ctx, { start, claim: lease, run: ran('succeeded') })));

        expect(rows.map((r) => r?.status)).toEqual(['succeeded', 'succeeded', 'succeeded']);
        expect(statements()).toEqual([2]);
        const { rows: inputs } = await h.admin.query<{ n: number }>(`select length(input ->> 'text') as n from run.executions where id = $1`, [large.id]);
        expect(inputs[0].n).toBe(100_000);
      } finally {
        restore();
      }
    });

    it('none × a batch one of whose starts fails (its id taken) → the batch writes nothing, then each start alone: the others written, only that one refused', async () => {
      const ctx = h.tenant();
      const workflowId = await arrangeWorkflow(h.admin, ctx);
      const taken = newStart(ctx, workflowId);
      await executionsRepository.startFinished(h.tenantDb, ctx, taken, lease, ran('succeeded'));
      const finished = new FinishedStarts(h.tenantDb);
      const fresh = [newStart(ctx, workflowId), newStart(ctx, workflowId)];

      const outcomes = await Promise.allSettled([
        finished.write(ctx, { start: fresh[0], claim: lease, run: ran('succeeded') }),
        finished.write(ctx, { start: { ...taken, usage: newStart(ctx, workflowId).usage }, claim: lease, run: ran('failed') }),
        finished.write(ctx, { start: fresh[1], claim: lease, run: ran('succeeded') }),
      ]);

      expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      expect((outcomes[1] as PromiseRejectedResult).reason).toMatchObject({ code: '23505' });
      expect(await readExecution(h.admin, taken.id)).toMatchObject({ status: 'succeeded' });
      expect(await countRows(h.admin, ctx.tenantId)).toEqual({ executions: 3, steps: 3, logs: 3, usage: 3 });
    });
  });
});
