import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { TenantContext } from '@platform/db';
import { storeHarness, type StoreHarness } from '@platform/testing';
import type { LogLine, NewStepRecord, Settlement, StepCommit } from '../src/engine/execution.records.js';
import { executionsRepository } from '../src/executions/executions.repository.js';
import { systemExecutionsRepository } from '../src/executions/system-executions.repository.js';
import { FINISHED, arrangeExecution, arrangeStep, countRows, otherTenant, readExecution, readLogs, readSteps, type ExecutionState } from './store-rows.js';

/**
 * The store tier of a running execution's transitions: run.commit_step (a worker's step records,
 * logs and settlement under its lease), and the repositories' own transitions: cancelling, renewing
 * a lease, timing out overdue runs and finding due ones (the system role). Real PostgreSQL with the
 * real migrations; tenant calls go as the repository makes them, under row-level security.
 */
describe('executions store: transitions', () => {
  let h: StoreHarness;

  beforeAll(async () => {
    h = await storeHarness(['run'], 'run_transitions');
  });

  afterAll(async () => {
    await h?.close();
  });

  const step = (path: string, status: NewStepRecord['status'], o: Partial<NewStepRecord> = {}): NewStepRecord => ({
    id: randomUUID(),
    path,
    step_id: path,
    type: 'transform',
    status,
    attempt: 1,
    input: null,
    output: status === 'succeeded' ? { from: path } : null,
    error: status === 'failed' ? { code: 'boom', message: 'Boom', step_id: path, retryable: true } : null,
    wake_at: null,
    started_at: new Date(),
    finished_at: status === 'waiting' ? null : new Date(),
    ...o,
  });

  const logs = (n: number, stepId = 'a'): LogLine[] =>
    Array.from({ length: n }, (_, i) => ({ id: randomUUID(), step_id: stepId, level: 'info', message: `line ${i}`, data: null, created_at: new Date() }));

  const inAnHour = new Date(Date.now() + 3600_000);

  describe('run.commit_step', () => {
    interface Expected {
      owned: boolean;
      status: ExecutionState;
      steps: string[];
      logs: number;
      finished: boolean;
      leaseKept: boolean;
      wakeAt?: Date;
    }
    type Row = [from: string, event: string, to: string, written: string, commit: () => StepCommit, expected: Expected];
    const running = (status: ExecutionState = 'running') => ({ owned: true, status, finished: false, leaseKept: status === 'running' });
    const settle = (s: Settlement) => s;

    // from-state running (held by worker-a, who commits) × event → to-state: what was written
    it.each<Row>([
      [
        'running',
        'step succeeded, more steps',
        'running',
        'one step row succeeded, its logs; the lease kept',
        () => ({ steps: [step('a', 'succeeded')], logs: logs(2) }),
        { ...running(), steps: ['a:succeeded'], logs: 2 },
      ],
      [
        'running',
        'step failed, to be retried',
        'running',
        'one step row failed; the lease kept',
        () => ({ steps: [step('a', 'failed')], logs: logs(1) }),
        { ...running(), steps: ['a:failed'], logs: 1 },
      ],
      ['running', 'log lines only', 'running', 'the logs, no step row', () => ({ steps: [], logs: logs(3) }), { ...running(), steps: [], logs: 3 }],
      [
        'running',
        'last step succeeded, settle succeeded',
        'succeeded',
        'step row, output, finished_at; the lease cleared',
        () => ({ steps: [step('a', 'succeeded')], logs: logs(1), settle: settle({ status: 'succeeded', output: { done: true } }) }),
        { owned: true, status: 'succeeded', steps: ['a:succeeded'], logs: 1, finished: true, leaseKept: false },
      ],
      [
        'running',
        'pure steps held back, then settle succeeded',
        'succeeded',
        'every held-back step row, in order, with the settlement; the lease cleared',
        () => ({
          // Distinct start times: readSteps orders by them, as the history does.
          steps: ['a', 'b', 'c'].map((path, i) => step(path, 'succeeded', { started_at: new Date(Date.now() - 3 + i) })),
          logs: logs(3),
          settle: settle({ status: 'succeeded', output: { done: true } }),
        }),
        { owned: true, status: 'succeeded', steps: ['a:succeeded', 'b:succeeded', 'c:succeeded'], logs: 3, finished: true, leaseKept: false },
      ],
      [
        'running',
        'step failed for good, settle failed',
        'failed',
        'step row, error, finished_at; the lease cleared',
        () => ({ steps: [step('a', 'failed')], logs: [], settle: settle({ status: 'failed', error: { code: 'boom', message: 'Boom', step_id: 'a' } }) }),
        { owned: true, status: 'failed', steps: ['a:failed'], logs: 0, finished: true, leaseKept: false },
      ],
      [
        'running',
        'delay step, settle waiting until a time',
        'waiting',
        'step row waiting, wake_at set, not finished; the lease cleared',
        () => ({ steps: [step('d', 'waiting', { wake_at: inAnHour })], logs: [], settle: settle({ status: 'waiting', wakeAt: inAnHour }) }),
        { owned: true, status: 'waiting', steps: ['d:waiting'], logs: 0, finished: false, leaseKept: false, wakeAt: inAnHour },
      ],
      [
        'running',
        'approval step, settle waiting on the task',
        'waiting',
        'step row waiting, no wake_at; the lease cleared',
        () => ({ steps: [step('ask', 'waiting', { type: 'approval' })], logs: logs(1), settle: settle({ status: 'waiting' }) }),
        { owned: true, status: 'waiting', steps: ['ask:waiting'], logs: 1, finished: false, leaseKept: false },
      ],
      ...(['cancelled', 'timed_out'] as const).map((status): Row => [
        'running',
        `settle ${status}`,
        status,
        'finished_at, error; the lease cleared',
        () => ({ steps: [], logs: [], settle: { status, error: { code: status, message: status, step_id: null } } }),
        { owned: true, status, steps: [], logs: 0, finished: true, leaseKept: false },
      ]),
    ])('%s × %s → %s: %s', async (_from, _event, _to, _written, commit, expected) => {
      const ctx = h.tenant();
      const id = await arrangeExecution(h.admin, ctx, 'running', { worker: 'worker-a' });
      const c = commit();

      const owned = await executionsRepository.commitStep(h.tenantDb, ctx, id, 'worker-a', c);

      expect(owned).toBe(expected.owned);
      const row = await readExecution(h.admin, id);
      expect(row!.status).toBe(expected.status);
      expect(row!.lease_owner).toBe(expected.leaseKept ? 'worker-a' : null);
      expect(row!.lease_until === null).toBe(!expected.leaseKept);
      expect(row!.finished_at !== null).toBe(expected.finished);
      expect(row!.wake_at).toEqual(expected.wakeAt ?? null);
      if (c.settle?.output) expect(row!.output).toEqual(c.settle.output);
      if (c.settle?.error) expect(row!.error).toEqual(c.settle.error);
      const steps = await readSteps(h.admin, id);
      expect(steps.map((s) => `${s.path}:${s.status}`)).toEqual(expected.steps);
      for (const [i, written] of c.steps.entries()) expect(steps[i]).toMatchObject({ id: written.id, output: written.output, scope_id: null });
      expect((await readLogs(h.admin, id)).map((l) => l.message).sort()).toEqual(c.logs.map((l) => l.message).sort());
    });

    it('running × a redelivered success of a step recorded before → running: true, but no second row and none of its logs', async () => {
      const ctx = h.tenant();
      const id = await arrangeExecution(h.admin, ctx, 'running', { worker: 'worker-a' });
      const first = await arrangeStep(h.admin, ctx, id, { path: 'a', status: 'succeeded', type: 'transform', output: { first: true } });

      const owned = await executionsRepository.commitStep(h.tenantDb, ctx, id, 'worker-a', { steps: [step('a', 'succeeded')], logs: logs(2) });

      expect(owned).toBe(true);
      expect(await readSteps(h.admin, id)).toEqual([expect.objectContaining({ id: first, status: 'succeeded', output: { first: true } })]);
      expect(await readLogs(h.admin, id)).toEqual([]);
    });

    it('running × held-back records of which one was recorded before → running: the new one written, and the logs with it', async () => {
      const ctx = h.tenant();
      const id = await arrangeExecution(h.admin, ctx, 'running', { worker: 'worker-a' });
      const first = await arrangeStep(h.admin, ctx, id, { path: 'a', status: 'succeeded', type: 'transform', output: { first: true } });

      const b = step('b', 'succeeded');
      expect(await executionsRepository.commitStep(h.tenantDb, ctx, id, 'worker-a', { steps: [step('a', 'succeeded'), b], logs: logs(2) })).toBe(true);

      expect((await readSteps(h.admin, id)).map((s) => s.id).sort()).toEqual([first, b.id].sort());
      expect(await readLogs(h.admin, id)).toHaveLength(2);
    });

    it('running × a retry after a failed attempt → running: a second row for the path, attempt 2', async () => {
      const ctx = h.tenant();
      const id = await arrangeExecution(h.admin, ctx, 'running', { worker: 'worker-a' });
      await arrangeStep(h.admin, ctx, id, { path: 'a', status: 'failed', type: 'transform' });

      expect(await executionsRepository.commitStep(h.tenantDb, ctx, id, 'worker-a', { steps: [step('a', 'succeeded', { attempt: 2 })], logs: [] })).toBe(true);

      // Sorted: the new row's started_at comes from the worker's clock, in milliseconds.
      expect((await readSteps(h.admin, id)).map((s) => `${s.status}:${s.attempt}`).sort()).toEqual(['failed:1', 'succeeded:2']);
    });

    // Every row has four elements: Jest hands a test with more parameters than its row a `done` callback.
    type Refused = [from: string, event: string, arrange: { status: ExecutionState; owner?: string; leaseExpired?: boolean }, as: 'tenant' | 'customer' | null];
    const full = (): StepCommit => ({ steps: [step('a', 'succeeded')], logs: logs(1), settle: { status: 'succeeded', output: { done: true } } });
    const noSettle = (): StepCommit => ({ steps: [step('a', 'succeeded')], logs: logs(1) });

    // Refused: false, and the execution, its steps and logs are as they were.
    it.each<Refused>([
      ["running (worker-b's lease)", 'worker-a commits', { status: 'running', owner: 'worker-b' }, null],
      ['running (lease expired, taken over by worker-b)', 'the old worker-a commits', { status: 'running', owner: 'worker-b', leaseExpired: true }, null],
      ['queued', 'worker-a commits', { status: 'queued' }, null],
      ['waiting', 'worker-a commits', { status: 'waiting' }, null],
      ...FINISHED.map((status): Refused => [status, 'worker-a commits: finished stays finished', { status }, null]),
      ['running (worker-a)', "worker-a commits in another tenant's context", { status: 'running', owner: 'worker-a' }, 'tenant'],
      ["running (worker-a, a customer's)", "worker-a commits in another customer's context", { status: 'running', owner: 'worker-a' }, 'customer'],
    ])('%s × %s → unchanged: false, nothing written', async (_from, _event, a, as) => {
      for (const commit of [full, noSettle]) {
        const ctx = { ...h.tenant(), scopeId: as === 'customer' ? randomUUID() : null };
        const id = await arrangeExecution(h.admin, ctx, a.status, { worker: a.owner, leaseExpired: a.leaseExpired });
        const before = await readExecution(h.admin, id);
        const caller: TenantContext = as === 'tenant' ? otherTenant() : as === 'customer' ? { ...ctx, scopeId: randomUUID() } : ctx;

        expect(await executionsRepository.commitStep(h.tenantDb, caller, id, 'worker-a', commit())).toBe(false);

        expect(await readExecution(h.admin, id)).toEqual(before);
        expect(await countRows(h.admin, ctx.tenantId)).toMatchObject({ executions: 1, steps: 0, logs: 0 });
        expect(await countRows(h.admin, caller.tenantId)).toMatchObject({ steps: 0, logs: 0 });
      }
    });
  });

  describe('executionsRepository.cancel (cancel from outside a worker)', () => {
    it.each<[ExecutionState, string, { wake?: 'past' | 'future' }]>([
      ['queued', 'cancelled, finished_at, error cancelled', {}],
      ['running', "cancelled, finished_at, error cancelled; the worker's lease cleared", {}],
      ['waiting', 'cancelled, finished_at, error cancelled; wake_at cleared', { wake: 'future' }],
    ])('%s × cancel → cancelled: %s', async (from, _written, o) => {
      const ctx = h.tenant();
      const id = await arrangeExecution(h.admin, ctx, from, { worker: 'worker-a', ...o });

      const answered = await h.tenantDb.run(ctx, (m) => executionsRepository.cancel(m, id));

      expect(answered).toMatchObject({ id, status: 'cancelled' });
      const row = await readExecution(h.admin, id);
      expect(row).toMatchObject({ status: 'cancelled', lease_owner: null, lease_until: null, wake_at: null, error: { code: 'cancelled' } });
      expect(row!.finished_at).not.toBeNull();
      // The worker that held it can no longer commit.
      expect(await executionsRepository.commitStep(h.tenantDb, ctx, id, 'worker-a', { steps: [], logs: logs(1), settle: { status: 'succeeded' } })).toBe(false);
      expect((await readExecution(h.admin, id))!.status).toBe('cancelled');
    });

    it.each<[string, ExecutionState, 'tenant' | null]>([
      ...FINISHED.map((s): [string, ExecutionState, null] => [`${s} × cancel`, s, null]),
      ["queued × cancel in another tenant's context", 'queued', 'tenant'],
    ])('%s → unchanged: undefined, nothing written', async (_case, from, as) => {
      const ctx = h.tenant();
      const id = await arrangeExecution(h.admin, ctx, from);
      const before = await readExecution(h.admin, id);

      expect(await h.tenantDb.run(as ? otherTenant() : ctx, (m) => executionsRepository.cancel(m, id))).toBeUndefined();

      expect(await readExecution(h.admin, id)).toEqual(before);
    });
  });

  describe('executionsRepository.renewLease', () => {
    it.each<[string, string, string, { owner: string; as?: 'tenant' }, boolean]>([
      ['running (worker-a)', 'worker-a renews', 'lease_until moved on', { owner: 'worker-a' }, true],
      ["running (worker-b's)", 'worker-a renews', "nothing: worker-b's lease stays", { owner: 'worker-b' }, false],
      ['running (worker-a)', "worker-a renews in another tenant's context", 'nothing', { owner: 'worker-a', as: 'tenant' }, false],
    ])('%s × %s → running: %s', async (_from, _event, _written, o, renewed) => {
      const ctx = h.tenant();
      const id = await arrangeExecution(h.admin, ctx, 'running', { worker: o.owner });
      const before = await readExecution(h.admin, id);
      const caller = o.as ? otherTenant() : ctx;

      const answered = await h.tenantDb.run(caller, (m) => executionsRepository.renewLease(m, ctx.tenantId, id, { worker: 'worker-a', leaseMs: 120_000 }));

      expect(answered).toBe(renewed);
      const after = await readExecution(h.admin, id);
      if (renewed) expect(after!.lease_until!.getTime()).toBeGreaterThan(Date.now() + 100_000);
      else expect(after).toEqual(before);
    });
  });

  describe('systemExecutionsRepository (the reconciler, system role)', () => {
    it('timeOutOverdue: waiting and queued past their deadline → timed_out; running, not yet due or finished → unchanged', async () => {
      const ctx = h.tenant();
      const other = otherTenant();
      const overdue = [
        await arrangeExecution(h.admin, ctx, 'waiting', { timeoutPast: true, wake: 'future' }),
        await arrangeExecution(h.admin, ctx, 'queued', { timeoutPast: true }),
        await arrangeExecution(h.admin, other, 'waiting', { timeoutPast: true }),
      ];
      const untouched = [
        await arrangeExecution(h.admin, ctx, 'running', { timeoutPast: true }),
        await arrangeExecution(h.admin, ctx, 'waiting'),
        await arrangeExecution(h.admin, ctx, 'succeeded', { timeoutPast: true }),
      ];
      const readAll = async (ids: string[]) => {
        const rows = [];
        for (const id of ids) rows.push(await readExecution(h.admin, id));
        return rows;
      };
      const before = await readAll(untouched);

      const answered = await h.systemDb.run('time out', (m) => systemExecutionsRepository.timeOutOverdue(m));

      expect(answered.map((r) => r.id).sort()).toEqual([...overdue].sort());
      for (const id of overdue) {
        const row = await readExecution(h.admin, id);
        expect(row).toMatchObject({ status: 'timed_out', wake_at: null, error: { code: 'timed_out' } });
        expect(row!.finished_at).not.toBeNull();
      }
      expect(await readAll(untouched)).toEqual(before);
    });

    it('due: woken waiting → wake, queued for over 5 s → lost, running with an expired lease → lease; nothing else', async () => {
      const ctx = h.tenant();
      const wake = await arrangeExecution(h.admin, ctx, 'waiting', { wake: 'past' });
      const lost = await arrangeExecution(h.admin, ctx, 'queued');
      await h.admin.query(`update run.executions set created_at = now() - interval '10 seconds' where id = $1`, [lost]);
      const lease = await arrangeExecution(h.admin, ctx, 'running', { leaseExpired: true });
      for (const [status, o] of [
        ['waiting', { wake: 'future' }],
        ['waiting', {}],
        ['queued', {}],
        ['running', {}],
        ['succeeded', {}],
      ] as const)
        await arrangeExecution(h.admin, ctx, status, o);

      const due = await h.systemDb.run('due', (m) => systemExecutionsRepository.due(m));

      const ours = due.filter((d) => d.tenant_id === ctx.tenantId).map((d) => [d.id, d.reason]);
      expect(ours.sort()).toEqual(
        [
          [wake, 'wake'],
          [lost, 'lost'],
          [lease, 'lease'],
        ].sort(),
      );
    });
  });
});
