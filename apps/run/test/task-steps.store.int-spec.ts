import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { TenantContext } from '@platform/db';
import { storeHarness, type StoreHarness } from '@platform/testing';
import type { Claim, WaitingStepEnd } from '../src/engine/execution.records.js';
import { executionsRepository } from '../src/executions/executions.repository.js';
import { arrangeExecution, arrangeStep, countRows, otherTenant, readExecution, readSteps, type ExecutionState } from './store-rows.js';

/**
 * The store tier of resuming a waiting execution from outside: run.resolve_task_step (a human
 * task's outcome on its approval or form step, optionally claiming the execution it wakes), also
 * the one write path of a child execution's end on its parent's step (no worker). Real
 * PostgreSQL with the real migrations, as the application role under row-level security.
 */
describe('executions store: waiting steps resolved', () => {
  let h: StoreHarness;
  const lease: Claim = { worker: 'worker-b', leaseMs: 30_000 };

  beforeAll(async () => {
    h = await storeHarness(['run'], 'run_task_steps');
  });

  afterAll(async () => {
    await h?.close();
  });

  type Outcome = Pick<WaitingStepEnd, 'status' | 'output' | 'error'>;
  /** What ExecutionsService.resolveTask makes of each task outcome. */
  const outcome = (decision: 'approve' | 'reject' | 'submit' | 'expired (reject)' | 'expired (fail)'): Outcome => {
    if (decision === 'expired (fail)')
      return { status: 'failed', output: null, error: { code: 'task_expired', message: 'No decision in time', step_id: 'ask', final: true } };
    const expired = decision === 'expired (reject)';
    return {
      status: 'succeeded',
      output: {
        decision: expired ? 'reject' : decision,
        data: decision === 'submit' ? { amount: 5 } : {},
        completed_by: expired ? null : 'user:1',
        completed_at: '2026-11-27T00:00:00.000Z',
        ...(expired ? { expired: true } : {}),
      },
      error: null,
    };
  };

  const resolve = (ctx: TenantContext, executionId: string, o: Outcome, claim: Claim | null, path = 'ask') =>
    executionsRepository.resolveTaskStep(h.tenantDb, ctx, { executionId, stepPath: path, stepRowId: randomUUID(), ...o }, claim);

  /** An execution parked on its approval step `ask` after a first step `a`. */
  async function waitingOnTask(ctx: TenantContext, status: ExecutionState = 'waiting', o: { worker?: string } = {}) {
    const id = await arrangeExecution(h.admin, ctx, status, o);
    await arrangeStep(h.admin, ctx, id, { path: 'a', status: 'succeeded', type: 'transform' });
    await arrangeStep(h.admin, ctx, id, { path: 'ask', status: 'waiting' });
    return id;
  }

  const DECISIONS = ['approve', 'reject', 'submit', 'expired (reject)', 'expired (fail)'] as const;

  describe('run.resolve_task_step', () => {
    // from-state × event → to-state: what was written
    it.each(
      DECISIONS.map(
        (d) => ['waiting', `task decided: ${d}, no worker free`, 'waiting (due)', `one ${outcome(d).status} row for the step; wake_at now`, d] as const,
      ),
    )('%s × %s → %s: %s', async (_from, _event, _to, _written, decision) => {
      const ctx = h.tenant();
      const id = await waitingOnTask(ctx);
      const o = outcome(decision);

      const answered = await resolve(ctx, id, o, null);

      expect(answered).toEqual({ state: 'resolved', scope_id: null, request_id: `req-${id}` });
      const row = await readExecution(h.admin, id);
      expect(row).toMatchObject({ status: 'waiting', lease_owner: null, finished_at: null });
      expect(Math.abs(row!.wake_at!.getTime() - Date.now())).toBeLessThan(5_000);
      const steps = await readSteps(h.admin, id);
      expect(steps.map((s) => `${s.path}:${s.status}`)).toEqual(['a:succeeded', 'ask:waiting', `ask:${o.status}`]);
      expect(steps[2]).toMatchObject({ step_id: 'ask', type: 'approval', attempt: 1, output: o.output, error: o.error });
    });

    it.each(
      DECISIONS.map(
        (d) => ['waiting', `task decided: ${d}, a worker free`, 'running', `one ${outcome(d).status} row; the execution claimed by the worker`, d] as const,
      ),
    )('%s × %s → %s: %s', async (_from, _event, _to, _written, decision) => {
      const ctx = h.tenant();
      const id = await waitingOnTask(ctx);
      const o = outcome(decision);

      const answered = await resolve(ctx, id, o, lease);

      const row = await readExecution(h.admin, id);
      expect(row).toMatchObject({ status: 'running', lease_owner: 'worker-b', wake_at: null, finished_at: null });
      expect(row!.lease_until!.getTime()).toBeGreaterThan(Date.now() + 25_000);
      const steps = await readSteps(h.admin, id);
      expect(steps.map((s) => `${s.path}:${s.status}`)).toEqual(['a:succeeded', 'ask:waiting', `ask:${o.status}`]);
      expect(answered).toMatchObject({ state: 'resolved', claimed: { id, status: 'running', previous_status: 'waiting' } });
      // The claim answers every step record, the new one included, as the engine resumes from them.
      expect(answered!.claimed!.records!.map((r) => r.id).sort()).toEqual(steps.map((s) => s.id).sort());
      expect(answered!.claimed!.records!.find((r) => r.status === o.status && r.path === 'ask')).toMatchObject({ output: o.output, error: o.error });
    });

    it.each([null, lease])(
      'waiting (an hour) × task decided (claim %p) → the outcome row keeps the waiting step input and its start: the record spans the wait',
      async (claim) => {
        const ctx = h.tenant();
        const id = await arrangeExecution(h.admin, ctx, 'waiting');
        const input = { title: 'Refund order 42?', assignee: { team_id: randomUUID() } };
        const startedAt = new Date(Date.now() - 3_600_000);
        await arrangeStep(h.admin, ctx, id, { path: 'ask', status: 'waiting', input, startedAt });

        const answered = await resolve(ctx, id, outcome('approve'), claim);

        const steps = await readSteps(h.admin, id);
        expect(steps.map((s) => s.status)).toEqual(['waiting', 'succeeded']);
        expect(steps[1]).toMatchObject({ input, started_at: startedAt });
        expect(Math.abs(steps[1].finished_at!.getTime() - Date.now())).toBeLessThan(5_000);
        // What the engine resumes from carries the same.
        if (claim) {
          const record = answered!.claimed!.records!.find((r) => r.status === 'succeeded')!;
          expect(record.input).toEqual(input);
          expect(new Date(record.started_at).getTime()).toBe(startedAt.getTime());
        }
      },
    );

    it("running (worker-a's lease, step waiting) × task decided, a worker free → running: the step row, the lease stays worker-a's", async () => {
      const ctx = h.tenant();
      const id = await waitingOnTask(ctx, 'running', { worker: 'worker-a' });
      const before = await readExecution(h.admin, id);

      const answered = await resolve(ctx, id, outcome('approve'), lease);

      expect(answered).toEqual({ state: 'resolved', scope_id: null, request_id: `req-${id}` });
      expect(await readExecution(h.admin, id)).toEqual(before);
      expect((await readSteps(h.admin, id)).map((s) => s.status)).toEqual(['succeeded', 'waiting', 'succeeded']);
    });

    type Unchanged = [
      from: string,
      event: string,
      state: 'early' | 'done',
      arrange: (ctx: TenantContext) => Promise<string>,
      caller: (ctx: TenantContext) => TenantContext,
    ];
    const own = (ctx: TenantContext) => ctx;

    // Nothing written: the execution, its steps and every count as they were.
    it.each<Unchanged>([
      ['running (step not waiting yet)', 'task decided', 'early', (ctx) => arrangeExecution(h.admin, ctx, 'running'), own],
      ['queued', 'task decided', 'early', (ctx) => arrangeExecution(h.admin, ctx, 'queued'), own],
      [
        'waiting (resolved before)',
        'the same outcome again',
        'done',
        async (ctx) => {
          const id = await waitingOnTask(ctx);
          await arrangeStep(h.admin, ctx, id, { path: 'ask', status: 'succeeded', output: { decision: 'approve' } });
          await h.admin.query(`update run.executions set wake_at = now() - interval '1 second' where id = $1`, [id]);
          return id;
        },
        own,
      ],
      [
        'running (resolved and resumed)',
        'another decision later',
        'done',
        async (ctx) => {
          const id = await waitingOnTask(ctx, 'running');
          await arrangeStep(h.admin, ctx, id, { path: 'ask', status: 'succeeded', output: { decision: 'approve' } });
          return id;
        },
        own,
      ],
      ['succeeded (no waiting step)', 'task decided', 'done', (ctx) => arrangeExecution(h.admin, ctx, 'succeeded'), own],
      ['cancelled (no waiting step)', 'task decided', 'done', (ctx) => arrangeExecution(h.admin, ctx, 'cancelled'), own],
      ['waiting', "task decided in another tenant's context", 'done', (ctx) => waitingOnTask(ctx), () => otherTenant()],
      [
        "waiting (a customer's)",
        "task decided in another customer's context",
        'done',
        (ctx) => waitingOnTask(ctx),
        (ctx) => ({ ...ctx, scopeId: randomUUID() }),
      ],
    ])('%s × %s → unchanged: %s, nothing written', async (_from, _event, state, arrange, caller) => {
      for (const claim of [null, lease]) {
        const ctx = { ...h.tenant(), scopeId: randomUUID() };
        const id = await arrange(ctx);
        const before = { execution: await readExecution(h.admin, id), steps: await readSteps(h.admin, id), counts: await countRows(h.admin, ctx.tenantId) };
        const as = caller(ctx);

        const answered = await resolve(as, id, outcome('reject'), claim);

        expect(answered?.state).toBe(state);
        expect(answered?.claimed).toBeUndefined();
        if (as === ctx) expect(answered).toMatchObject({ scope_id: ctx.scopeId, request_id: `req-${id}` });
        else expect(answered).toMatchObject({ scope_id: null, request_id: null });
        expect({ execution: await readExecution(h.admin, id), steps: await readSteps(h.admin, id), counts: await countRows(h.admin, ctx.tenantId) }).toEqual(
          before,
        );
        expect(await countRows(h.admin, as.tenantId)).toMatchObject({ steps: as.tenantId === ctx.tenantId ? before.counts.steps : 0 });
      }
    });

    // A waiting row is never removed: a finished execution still has one, and a failed outcome is
    // not in the partial unique index (the store tier found both writing before they were fixed).
    it('cancelled while waiting on the task × task decided → unchanged: done, nothing written', async () => {
      const ctx = h.tenant();
      const id = await waitingOnTask(ctx);
      await h.tenantDb.run(ctx, (m) => executionsRepository.cancel(m, id));
      const steps = await readSteps(h.admin, id);

      const answered = await resolve(ctx, id, outcome('approve'), null);

      expect((await readSteps(h.admin, id)).map((s) => `${s.path}:${s.status}`)).toEqual(steps.map((s) => `${s.path}:${s.status}`));
      expect(answered?.state).toBe('done');
    });

    it('waiting (failed outcome recorded before) × the same failed outcome again → unchanged: done, nothing written', async () => {
      const ctx = h.tenant();
      const id = await waitingOnTask(ctx);
      expect((await resolve(ctx, id, outcome('expired (fail)'), null))?.state).toBe('resolved');
      const steps = await readSteps(h.admin, id);

      const again = await resolve(ctx, id, outcome('expired (fail)'), null);

      expect((await readSteps(h.admin, id)).map((s) => `${s.path}:${s.status}`)).toEqual(steps.map((s) => `${s.path}:${s.status}`));
      expect(again?.state).toBe('done');
    });
  });

  describe('run.resolve_task_step for a child execution’s end (ChildExecutions, no worker)', () => {
    const child = (id: string, status: 'succeeded' | 'failed') => ({
      executionId: id,
      stepPath: 'ask',
      stepRowId: randomUUID(),
      status,
      output: status === 'succeeded' ? { child: 'done' } : null,
      error: status === 'failed' ? { code: 'child_failed', message: 'The child failed', step_id: null, final: true } : null,
    });

    it.each([
      ['succeeded', { child: 'done' }, null],
      ['failed', null, { code: 'child_failed', message: 'The child failed', step_id: null, final: true }],
    ] as const)('waiting × child %s → waiting (due): one step row with its result, wake_at now', async (status, output, error) => {
      const ctx = h.tenant();
      const id = await waitingOnTask(ctx);

      const found = await executionsRepository.resolveTaskStep(h.tenantDb, ctx, child(id, status), null);

      expect(found?.state).toBe('resolved');
      const steps = await readSteps(h.admin, id);
      expect(steps.map((s) => `${s.path}:${s.status}`)).toEqual(['a:succeeded', 'ask:waiting', `ask:${status}`]);
      expect(steps[2]).toMatchObject({ output, error });
      const row = await readExecution(h.admin, id);
      expect(row!.status).toBe('waiting');
      expect(Math.abs(row!.wake_at!.getTime() - Date.now())).toBeLessThan(5_000);
    });

    it('waiting (resolved before) × the child’s end again → waiting: no second row', async () => {
      const ctx = h.tenant();
      const id = await waitingOnTask(ctx);
      await arrangeStep(h.admin, ctx, id, { path: 'ask', status: 'succeeded', output: { first: true } });

      expect((await executionsRepository.resolveTaskStep(h.tenantDb, ctx, child(id, 'succeeded'), null))?.state).toBe('done');

      expect((await readSteps(h.admin, id)).filter((s) => s.status === 'succeeded' && s.path === 'ask')).toEqual([
        expect.objectContaining({ output: { first: true } }),
      ]);
    });

    it.each([
      ['running (no waiting step)', false, 'early'],
      ["waiting, in another tenant's context", true, 'done'],
    ])('%s × child ended → unchanged: %s, nothing written', async (_from, asOther, state) => {
      const ctx = h.tenant();
      const id = asOther ? await waitingOnTask(ctx) : await arrangeExecution(h.admin, ctx, 'running');
      const before = { execution: await readExecution(h.admin, id), steps: await readSteps(h.admin, id) };
      const as = asOther ? otherTenant() : ctx;

      const found = await executionsRepository.resolveTaskStep(h.tenantDb, as, child(id, 'succeeded'), null);

      expect(found?.state).toBe(state);
      expect({ execution: await readExecution(h.admin, id), steps: await readSteps(h.admin, id) }).toEqual(before);
    });
  });
});
