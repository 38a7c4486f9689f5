import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { TenantContext } from '@platform/db';
import type { CreateTaskItem, TaskDecision, TaskStatus } from '@platform/messaging';
import { storeHarness, type StoreHarness } from '@platform/testing';
import { hotPath, tasksRepository } from '../src/tasks/tasks.repository.js';
import { FORM, arrangeTask, countTasks, otherTenant, readTask, type TaskArrangement } from './task-rows.js';

/**
 * The store tier of a task's life over the API: task.find_task, task.complete_task,
 * task.complete_plain_task and task.cancel_for_execution on real PostgreSQL with the real
 * migrations, called as the repository calls them (prepared statements through TenantDb.call,
 * the application role under row-level security), and the repository's creation, in-transaction
 * completion and assignment. Each table row is checked on the row read back as the admin.
 */
describe('tasks store', () => {
  let h: StoreHarness;

  beforeAll(async () => {
    h = await storeHarness(['task'], 'task_tasks');
  });

  afterAll(async () => {
    await h?.close();
  });

  const decision = (d: TaskDecision, data: Record<string, unknown> = {}) => ({ decision: d, data, completedBy: 'user:1' });

  /** The caller: the task's own context, another tenant, another customer, or the tenant-wide context of the customer's tenant. */
  type Caller = 'own' | 'other tenant' | 'other customer' | 'tenant-wide';
  const callerOf = (ctx: TenantContext, who: Caller): TenantContext =>
    who === 'own' ? ctx : who === 'other tenant' ? otherTenant() : who === 'other customer' ? { ...ctx, scopeId: randomUUID() } : { ...ctx, scopeId: null };

  describe('task.find_task', () => {
    it.each<[string, Caller, boolean]>([
      ["a customer's task, read by that customer", 'own', true],
      ["a customer's task, read tenant-wide", 'tenant-wide', true],
      ["a customer's task, read by another customer", 'other customer', false],
      ["a customer's task, read in another tenant's context", 'other tenant', false],
    ])('%s (%s context) → found: %s', async (_case, who, found) => {
      const ctx = { ...h.tenant(), scopeId: randomUUID() };
      const id = await arrangeTask(h.admin, ctx);

      const row = await hotPath.find(h.tenantDb, callerOf(ctx, who), id);

      if (found) expect(row).toEqual(await readTask(h.admin, id));
      else expect(row).toBeUndefined();
    });
  });

  /** Completed now by `by` with `d`: every column the completion writes. */
  async function expectCompleted(id: string, d: TaskDecision, data: Record<string, unknown>) {
    const row = await readTask(h.admin, id);
    expect(row).toMatchObject({ status: 'completed', decision: d, data, completed_by: 'user:1', outcome_pending: true });
    expect(Math.abs(row!.completed_at!.getTime() - Date.now())).toBeLessThan(5_000);
    expect(Math.abs(row!.updated_at.getTime() - Date.now())).toBeLessThan(5_000);
  }

  type Completion = [from: string, event: string, to: string, arrange: TaskArrangement, d: TaskDecision, who: Caller];
  const PENDING_COMPLETIONS: Completion[] = [
    ['pending approval', 'approve', 'completed', { type: 'approval' }, 'approve', 'own'],
    ['pending approval', 'reject', 'completed', { type: 'approval' }, 'reject', 'own'],
    ['pending form', 'submit', 'completed', { type: 'form', form: FORM }, 'submit', 'own'],
    ['pending form', 'reject', 'completed', { type: 'form', form: FORM }, 'reject', 'own'],
    ["pending (a customer's)", 'approve, tenant-wide', 'completed', {}, 'approve', 'tenant-wide'],
  ];
  const REFUSED_COMPLETIONS: Completion[] = [
    ...(['completed', 'expired', 'cancelled'] as TaskStatus[]).map((status): Completion => [status, 'approve', status, { status }, 'approve', 'own']),
    ['pending', "approve in another tenant's context", 'pending', {}, 'approve', 'other tenant'],
    ["pending (a customer's)", "approve in another customer's context", 'pending', {}, 'approve', 'other customer'],
  ];

  describe('task.complete_task', () => {
    // from-state × event → to-state: decision, data, completed_by and _at, the outbox flag
    it.each(PENDING_COMPLETIONS)('%s × %s → %s: the decision and the outbox flag written', async (_from, _event, _to, arrange, d, who) => {
      const ctx = { ...h.tenant(), scopeId: randomUUID() };
      const id = await arrangeTask(h.admin, ctx, arrange);
      const data = d === 'submit' ? { amount: 5 } : { note: d };

      const row = await hotPath.complete(h.tenantDb, callerOf(ctx, who), id, decision(d, data));

      expect(row).toMatchObject({ id, status: 'completed', decision: d });
      await expectCompleted(id, d, data);
    });

    // Refused: undefined, the row as it was (a completed task keeps its first decision).
    it.each(REFUSED_COMPLETIONS)('%s × %s → %s: nothing written', async (_from, _event, _to, arrange, d, who) => {
      const ctx = { ...h.tenant(), scopeId: randomUUID() };
      const id = await arrangeTask(h.admin, ctx, arrange);
      const before = await readTask(h.admin, id);

      expect(await hotPath.complete(h.tenantDb, callerOf(ctx, who), id, decision(d))).toBeUndefined();

      expect(await readTask(h.admin, id)).toEqual(before);
    });

    it('pending × a decision the table does not know → refused by its check, nothing written', async () => {
      const ctx = h.tenant();
      const id = await arrangeTask(h.admin, ctx);
      const before = await readTask(h.admin, id);

      await expect(hotPath.complete(h.tenantDb, ctx, id, decision('maybe' as TaskDecision))).rejects.toMatchObject({ code: '23514' });

      expect(await readTask(h.admin, id)).toEqual(before);
    });

    it('pending × two completions at once → completed: exactly one wins, its decision is the one written', async () => {
      const ctx = h.tenant();
      const id = await arrangeTask(h.admin, ctx);

      const [a, b] = await Promise.all([hotPath.complete(h.tenantDb, ctx, id, decision('approve')), hotPath.complete(h.tenantDb, ctx, id, decision('reject'))]);

      expect([a, b].filter(Boolean)).toHaveLength(1);
      await expectCompleted(id, (a ?? b)!.decision!, {});
    });
  });

  describe('task.complete_plain_task (a tenant key, no form to check)', () => {
    it.each<[string, string, TaskArrangement, TaskDecision]>([
      ['pending approval', 'approve', { type: 'approval' }, 'approve'],
      ['pending approval', 'reject', { type: 'approval' }, 'reject'],
      ['pending form without a form schema', 'submit', { type: 'form' }, 'submit'],
      ['pending form without a form schema', 'reject', { type: 'form' }, 'reject'],
    ])('%s × %s → completed: the decision and the outbox flag written', async (_from, _event, arrange, d) => {
      const ctx = h.tenant();
      const id = await arrangeTask(h.admin, ctx, arrange);

      const row = await hotPath.completePlain(h.tenantDb, ctx, id, decision(d, { note: d }));

      expect(row).toMatchObject({ id, status: 'completed', decision: d });
      await expectCompleted(id, d, { note: d });
    });

    // No row: CompletionService then reads the task and explains (or finds another completion won).
    it.each<Completion>([
      ['pending approval', 'submit (not an approval decision)', 'pending', { type: 'approval' }, 'submit', 'own'],
      ['pending form without a form schema', 'approve (not a form decision)', 'pending', { type: 'form' }, 'approve', 'own'],
      ['pending form with a form schema', 'submit (its data to be checked)', 'pending', { type: 'form', form: FORM }, 'submit', 'own'],
      ['pending form with a form schema', 'reject', 'pending', { type: 'form', form: FORM }, 'reject', 'own'],
      ...REFUSED_COMPLETIONS,
    ])('%s × %s → %s: nothing written', async (_from, _event, _to, arrange, d, who) => {
      const ctx = { ...h.tenant(), scopeId: randomUUID() };
      const id = await arrangeTask(h.admin, ctx, arrange);
      const before = await readTask(h.admin, id);

      expect(await hotPath.completePlain(h.tenantDb, callerOf(ctx, who), id, decision(d))).toBeUndefined();

      expect(await readTask(h.admin, id)).toEqual(before);
    });
  });

  describe('task.cancel_for_execution (the execution ended)', () => {
    it('pending tasks of the execution → cancelled (nothing to deliver); its decided tasks, other executions and tenants unchanged', async () => {
      const ctx = h.tenant();
      const executionId = randomUUID();
      const customer = { ...ctx, scopeId: randomUUID() };
      const pending = [await arrangeTask(h.admin, ctx, { executionId, stepPath: 'a' }), await arrangeTask(h.admin, customer, { executionId, stepPath: 'b' })];
      const untouched = [
        await arrangeTask(h.admin, ctx, { executionId, stepPath: 'c', status: 'completed', outcomePending: true }),
        await arrangeTask(h.admin, ctx, { executionId, stepPath: 'd', status: 'expired' }),
        await arrangeTask(h.admin, ctx, { executionId: randomUUID() }),
        await arrangeTask(h.admin, otherTenant(), { executionId }),
      ];
      const before = [];
      for (const id of untouched) before.push(await readTask(h.admin, id));

      // As TasksService calls it: tenant-wide, whoever started the execution.
      const rows = await hotPath.cancelForExecution(h.tenantDb, { ...ctx, scopeId: null }, executionId);

      expect(rows.map((r) => r.id).sort()).toEqual([...pending].sort());
      for (const id of pending) {
        const row = await readTask(h.admin, id);
        expect(row).toMatchObject({ status: 'cancelled', decision: null, completed_at: null, outcome_pending: false });
        expect(Math.abs(row!.updated_at.getTime() - Date.now())).toBeLessThan(5_000);
      }
      for (const [i, id] of untouched.entries()) expect(await readTask(h.admin, id)).toEqual(before[i]);
    });

    it.each<[string, Caller]>([
      ['cancelled before × the same execution ends again', 'own'],
      ["pending × the execution ends, in another tenant's context", 'other tenant'],
    ])('%s → unchanged: no rows, nothing written', async (_case, who) => {
      const ctx = h.tenant();
      const executionId = randomUUID();
      const id = await arrangeTask(h.admin, ctx, { executionId, status: who === 'own' ? 'cancelled' : 'pending' });
      const before = await readTask(h.admin, id);

      expect(await hotPath.cancelForExecution(h.tenantDb, callerOf(ctx, who), executionId)).toEqual([]);

      expect(await readTask(h.admin, id)).toEqual(before);
    });
  });

  describe('tasksRepository: creation, completion in a transaction, assignment', () => {
    const item = (o: Partial<CreateTaskItem> = {}): CreateTaskItem => ({
      executionId: randomUUID(),
      workflowId: randomUUID(),
      workflowName: 'Refunds',
      stepId: 'ask',
      stepPath: 'ask',
      type: 'approval',
      title: 'Approve the refund',
      assignee: { user_id: randomUUID() },
      dueAt: new Date(Date.now() + 3600_000).toISOString(),
      onExpiry: 'reject',
      ...o,
    });
    const insert = (ctx: TenantContext, i: CreateTaskItem, id = randomUUID()) =>
      h.tenantDb.run(ctx, (m) => tasksRepository.insert(m, { tenantId: ctx.tenantId, environmentId: ctx.environmentId, scopeId: ctx.scopeId ?? null, id }, i));

    it('none × create → pending: one row with its origin, assignee and deadline, no decision', async () => {
      const ctx = { ...h.tenant(), scopeId: randomUUID() };
      const i = item();
      const id = randomUUID();

      expect(await insert(ctx, i, id)).toMatchObject({ id, status: 'pending' });

      expect(await readTask(h.admin, id)).toMatchObject({
        scope_id: ctx.scopeId,
        status: 'pending',
        execution_id: i.executionId,
        step_path: 'ask',
        assignee_type: 'user',
        assignee_id: i.assignee!.user_id,
        on_expiry: 'reject',
        decision: null,
        outcome_pending: false,
      });
    });

    const agentItem = (o: Partial<CreateTaskItem> = {}) =>
      item({
        agentRun: { agentRunId: randomUUID(), agentId: randomUUID(), toolCallId: 'call-1' },
        executionId: undefined,
        workflowId: undefined,
        stepId: undefined,
        stepPath: undefined,
        ...o,
      });

    it.each<[string, () => CreateTaskItem, (first: CreateTaskItem) => CreateTaskItem]>([
      ['the same execution and step path', () => item(), (first) => item({ executionId: first.executionId, stepPath: first.stepPath, title: 'Again' })],
      ['the same agent run and tool call', () => agentItem(), (first) => agentItem({ agentRun: first.agentRun, title: 'Again' })],
    ])('pending × create again for %s → pending: undefined, the first row unchanged, no second row', async (_case, make, again) => {
      const ctx = h.tenant();
      const first = make();
      const firstRow = await insert(ctx, first);
      const before = await readTask(h.admin, firstRow!.id);

      expect(await insert(ctx, again(first))).toBeUndefined();

      expect(await readTask(h.admin, firstRow!.id)).toEqual(before);
      expect(await countTasks(h.admin, ctx.tenantId)).toBe(1);
    });

    it.each<[TaskStatus, string, boolean]>([
      ['pending', 'completed: the decision and the outbox flag written', true],
      ['completed', 'completed: undefined, the first decision kept', false],
      ['expired', 'expired: undefined, nothing written', false],
      ['cancelled', 'cancelled: undefined, nothing written', false],
    ])('%s × complete (a signed link, in its transaction) → %s', async (from, _to, completes) => {
      const ctx = h.tenant();
      const id = await arrangeTask(h.admin, ctx, { status: from });
      const before = await readTask(h.admin, id);

      const row = await h.tenantDb.run(ctx, (m) => hotPath.complete(h.tenantDb, ctx, id, decision('reject', { why: 'no' }), m));

      if (completes) {
        expect(row).toMatchObject({ id, status: 'completed' });
        await expectCompleted(id, 'reject', { why: 'no' });
      } else {
        expect(row).toBeUndefined();
        expect(await readTask(h.admin, id)).toEqual(before);
      }
    });

    it.each<[TaskStatus, Caller, boolean]>([
      ['pending', 'own', true],
      ['completed', 'own', false],
      ['pending', 'other tenant', false],
    ])('%s × assign (%s context) → assigned: %s', async (from, who, assigns) => {
      const ctx = h.tenant();
      const id = await arrangeTask(h.admin, ctx, { status: from });
      const before = await readTask(h.admin, id);
      const team = randomUUID();

      const row = await h.tenantDb.run(callerOf(ctx, who), (m) => tasksRepository.assign(m, id, 'team', team));

      if (assigns) expect(await readTask(h.admin, id)).toMatchObject({ status: 'pending', assignee_type: 'team', assignee_id: team });
      else {
        expect(row).toBeUndefined();
        expect(await readTask(h.admin, id)).toEqual(before);
      }
    });
  });
});
