import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { TenantContext } from '@platform/db';
import { storeHarness, type StoreHarness } from '@platform/testing';
import { RunConfig } from '../src/config/run.config.js';
import type { StartRequest } from '../src/engine/execution.records.js';
import { ExecutionStoreService } from '../src/executions/execution-store.service.js';
import { executionsRepository } from '../src/executions/executions.repository.js';
import { FinishedStarts } from '../src/executions/finished-starts.js';
import {
  FINISHED,
  arrangeExecution,
  newStart,
  arrangeStep,
  arrangeWorkflow,
  countRows,
  otherTenant,
  readExecution,
  type ExecutionState,
} from './store-rows.js';

/**
 * The store tier of starting and claiming executions: run.start_execution, run.claim_execution
 * and run.step_records_json on real PostgreSQL with the real migrations, called as the
 * repository calls them (prepared statements through TenantDb.call, the application role under
 * row-level security), each table row checked on what the function wrote.
 */
describe('executions store: start and claim', () => {
  let h: StoreHarness;
  let store: ExecutionStoreService;
  const lease = { worker: 'worker-b', leaseMs: 30_000 };

  beforeAll(async () => {
    h = await storeHarness(['run'], 'run_executions');
    const config = Object.assign(new RunConfig(), { RUN_DEFAULT_TIMEOUT_SECONDS: 600 });
    store = new ExecutionStoreService(h.tenantDb, h.systemDb, new FinishedStarts(h.tenantDb), config);
  });

  afterAll(async () => {
    await h?.close();
  });

  const secondsFromNow = (d: Date | null) => (d === null ? null : Math.round((d.getTime() - Date.now()) / 1000));

  describe('run.start_execution', () => {
    // from-state × event → to-state: what was written
    it.each([
      ['none', 'start without a worker', 'queued', 'one row of the current version, no lease, one usage row', null],
      ['none', 'start with a worker', 'running', "one row born under the worker's lease, started, one usage row", lease],
    ] as const)('%s × %s → %s: %s', async (_from, _event, to, _written, claim) => {
      const ctx = h.tenant();
      const workflowId = await arrangeWorkflow(h.admin, ctx);
      const start = newStart(ctx, workflowId);

      const answered = await executionsRepository.start(h.tenantDb, ctx, start, claim);

      const row = await readExecution(h.admin, start.id);
      expect(answered).toMatchObject({ id: start.id, status: to });
      expect(row).toMatchObject({
        tenant_id: ctx.tenantId,
        workflow_id: workflowId,
        workflow_version: 2,
        status: to,
        request_id: 'req-start',
        lease_owner: claim?.worker ?? null,
        finished_at: null,
      });
      expect(secondsFromNow(row!.timeout_at)).toBeGreaterThan(595);
      expect(secondsFromNow(row!.timeout_at)).toBeLessThanOrEqual(600);
      if (claim) {
        expect(secondsFromNow(row!.lease_until)).toBeGreaterThan(25);
        expect(row!.started_at).not.toBeNull();
      } else {
        expect(row!.lease_until).toBeNull();
        expect(row!.started_at).toBeNull();
      }
      const usage = await h.admin.query(`select event_id, metric, quantity, request_id from run.usage_outbox where tenant_id = $1`, [ctx.tenantId]);
      expect(usage.rows).toEqual([{ event_id: start.usage!.fact.eventId, metric: 'runs', quantity: '1', request_id: 'req-start' }]);
      expect(await countRows(h.admin, ctx.tenantId)).toEqual({ executions: 1, steps: 0, logs: 0, usage: 1 });
    });

    it("none × start of a workflow whose settings give a timeout → queued: timeout_at from the workflow's current version", async () => {
      const ctx = h.tenant();
      const workflowId = await arrangeWorkflow(h.admin, ctx, { settings: { timeout_seconds: 60 } });
      const start = newStart(ctx, workflowId, { usage: null, parentExecutionId: randomUUID(), parentStepPath: 'sub' });

      await executionsRepository.start(h.tenantDb, ctx, start, null);

      const row = await readExecution(h.admin, start.id);
      expect(secondsFromNow(row!.timeout_at)).toBeGreaterThan(55);
      expect(secondsFromNow(row!.timeout_at)).toBeLessThanOrEqual(60);
      // Unmetered (a subworkflow's child): no usage row.
      expect(await countRows(h.admin, ctx.tenantId)).toEqual({ executions: 1, steps: 0, logs: 0, usage: 0 });
    });

    it.each([
      ['none', 'start of a disabled workflow', 'none', 'nothing', { status: 'disabled' }],
      ['none', 'start of a deleted workflow', 'none', 'nothing', { deleted: true }],
      ['none', "start of another tenant's workflow", 'none', 'nothing, in either tenant', { otherTenant: true }],
    ] as const)('%s × %s → %s: %s', async (_from, _event, _to, _written, o) => {
      const ctx = h.tenant();
      const owner = 'otherTenant' in o ? otherTenant() : ctx;
      const workflowId = await arrangeWorkflow(h.admin, owner, 'otherTenant' in o ? {} : o);

      const answered = await executionsRepository.start(h.tenantDb, ctx, newStart(ctx, workflowId), lease);

      expect(answered).toBeUndefined();
      expect(await countRows(h.admin, ctx.tenantId)).toEqual({ executions: 0, steps: 0, logs: 0, usage: 0 });
      expect(await countRows(h.admin, owner.tenantId)).toMatchObject({ executions: 0, usage: 0 });
    });
  });

  describe('idempotent repeats (ExecutionStoreService.start over run.start_execution)', () => {
    const request = (workflowId: string, o: Partial<StartRequest> = {}): StartRequest => ({
      workflowId,
      input: { n: 1 },
      trigger: { type: 'api', id: null },
      meter: {},
      ...o,
    });

    it('existing × start with the same execution id → unchanged: the first run is answered, nothing new is written', async () => {
      const ctx = h.tenant();
      const workflowId = await arrangeWorkflow(h.admin, ctx);
      const executionId = randomUUID();
      const first = await store.start(ctx, request(workflowId, { executionId }), null);
      await h.admin.query(`update run.executions set status = 'succeeded', finished_at = now() where id = $1`, [executionId]);

      const again = await store.start(ctx, request(workflowId, { executionId, input: { n: 2 } }), lease);

      expect(first.created).toBe(true);
      expect(again).toMatchObject({ created: false, execution: { id: executionId, status: 'succeeded', input: { n: 1 } } });
      expect(await readExecution(h.admin, executionId)).toMatchObject({ status: 'succeeded', lease_owner: null });
      expect(await countRows(h.admin, ctx.tenantId)).toEqual({ executions: 1, steps: 0, logs: 0, usage: 1 });
    });

    it('existing × start with the same execution id for another workflow → refused (execution_id_taken), nothing written', async () => {
      const ctx = h.tenant();
      const [a, b] = [await arrangeWorkflow(h.admin, ctx), await arrangeWorkflow(h.admin, ctx)];
      const executionId = randomUUID();
      await store.start(ctx, request(a, { executionId }), null);

      await expect(store.start(ctx, request(b, { executionId }), null)).rejects.toMatchObject({ code: 'execution_id_taken' });
      expect(await readExecution(h.admin, executionId)).toMatchObject({ workflow_id: a });
      expect(await countRows(h.admin, ctx.tenantId)).toEqual({ executions: 1, steps: 0, logs: 0, usage: 1 });
    });

    it('existing × start with the same Idempotency-Key and request → unchanged: the first run is answered, nothing new is written', async () => {
      const ctx = h.tenant();
      const workflowId = await arrangeWorkflow(h.admin, ctx);
      const first = await store.start(ctx, request(workflowId, { idempotencyKey: 'k1' }), null);

      const again = await store.start(ctx, request(workflowId, { idempotencyKey: 'k1' }), lease);

      expect(again).toMatchObject({ created: false, execution: { id: first.execution.id, status: 'queued' } });
      expect(await readExecution(h.admin, first.execution.id)).toMatchObject({ status: 'queued', lease_owner: null, idempotency_key: 'k1' });
      expect(await countRows(h.admin, ctx.tenantId)).toEqual({ executions: 1, steps: 0, logs: 0, usage: 1 });
    });

    it('existing × the same Idempotency-Key with another input → refused (idempotency_mismatch), nothing written', async () => {
      const ctx = h.tenant();
      const workflowId = await arrangeWorkflow(h.admin, ctx);
      await store.start(ctx, request(workflowId, { idempotencyKey: 'k1' }), null);

      await expect(store.start(ctx, request(workflowId, { idempotencyKey: 'k1', input: { n: 2 } }), null)).rejects.toMatchObject({
        code: 'idempotency_mismatch',
      });
      expect(await countRows(h.admin, ctx.tenantId)).toEqual({ executions: 1, steps: 0, logs: 0, usage: 1 });
    });

    it('existing (key older than 24 h) × the same Idempotency-Key → queued: the old row gives up its key, a new row holds it', async () => {
      const ctx = h.tenant();
      const workflowId = await arrangeWorkflow(h.admin, ctx);
      const first = await store.start(ctx, request(workflowId, { idempotencyKey: 'k1' }), null);
      await h.admin.query(`update run.executions set created_at = now() - interval '25 hours' where id = $1`, [first.execution.id]);

      const again = await store.start(ctx, request(workflowId, { idempotencyKey: 'k1' }), null);

      expect(again.created).toBe(true);
      expect(again.execution.id).not.toBe(first.execution.id);
      expect(await readExecution(h.admin, first.execution.id)).toMatchObject({ idempotency_key: null });
      expect(await readExecution(h.admin, again.execution.id)).toMatchObject({ idempotency_key: 'k1', status: 'queued' });
    });

    it.each([
      ['another customer of the tenant', (ctx: TenantContext): TenantContext => ({ ...ctx, scopeId: randomUUID() })],
      ['another tenant', (): TenantContext => otherTenant()],
    ])('existing × the same Idempotency-Key from %s → queued: a row of its own, the first untouched', async (_who, other) => {
      const ctx = h.tenant();
      const workflowId = await arrangeWorkflow(h.admin, ctx);
      const first = await store.start(ctx, request(workflowId, { idempotencyKey: 'k1' }), null);
      const them = other(ctx);
      const theirWorkflow = them.tenantId === ctx.tenantId ? workflowId : await arrangeWorkflow(h.admin, them);

      const theirs = await store.start(them, request(theirWorkflow, { idempotencyKey: 'k1' }), null);

      expect(theirs.created).toBe(true);
      expect(theirs.execution.id).not.toBe(first.execution.id);
      expect(await readExecution(h.admin, theirs.execution.id)).toMatchObject({
        tenant_id: them.tenantId,
        scope_id: them.scopeId ?? null,
        idempotency_key: 'k1',
      });
      expect(await readExecution(h.admin, first.execution.id)).toMatchObject({ scope_id: null, idempotency_key: 'k1', status: 'queued' });
    });
  });

  describe('run.claim_execution', () => {
    type Arrange = { status: ExecutionState; wake?: 'past' | 'future' | null; leaseExpired?: boolean; asOther?: 'tenant' | 'customer' };
    // from-state × event → to-state: what was written
    it.each<[string, string, string, string, Arrange, boolean]>([
      ['queued', 'claim', 'running', 'lease to the claimant, started now; no step records read', { status: 'queued' }, true],
      ['waiting (woken)', 'claim', 'running', 'lease to the claimant, wake_at cleared; the step records read', { status: 'waiting', wake: 'past' }, true],
      ['running (lease expired)', 'claim', 'running', 'lease moves to the claimant; the step records read', { status: 'running', leaseExpired: true }, true],
      ['waiting (wake in the future)', 'claim', 'waiting', 'nothing', { status: 'waiting', wake: 'future' }, false],
      ['waiting (on a task, no wake)', 'claim', 'waiting', 'nothing', { status: 'waiting', wake: null }, false],
      ['running (lease held)', 'claim', 'running', "nothing: the other worker's lease stays", { status: 'running' }, false],
      ...FINISHED.map((status): [string, string, string, string, Arrange, boolean] => [
        status,
        'claim',
        status,
        'nothing: finished stays finished',
        { status },
        false,
      ]),
      ['queued', "claim in another tenant's context", 'queued', 'nothing', { status: 'queued', asOther: 'tenant' }, false],
      ['waiting (woken)', "claim in another tenant's context", 'waiting', 'nothing', { status: 'waiting', wake: 'past', asOther: 'tenant' }, false],
      ["queued (a customer's)", "claim in another customer's context", 'queued', 'nothing', { status: 'queued', asOther: 'customer' }, false],
    ])('%s × %s → %s: %s', async (_from, _event, to, _written, a, claims) => {
      const ctx = { ...h.tenant(), scopeId: a.asOther === 'customer' ? randomUUID() : null };
      const id = await arrangeExecution(h.admin, ctx, a.status, { worker: 'worker-a', wake: a.wake, leaseExpired: a.leaseExpired });
      const steps = a.status === 'queued' ? [] : [await arrangeStep(h.admin, ctx, id, { path: 'a', status: 'succeeded', type: 'transform', output: { x: 1 } })];
      const before = await readExecution(h.admin, id);

      const as = a.asOther === 'tenant' ? otherTenant() : a.asOther === 'customer' ? { ...ctx, scopeId: randomUUID() } : ctx;
      const claimed = await executionsRepository.claim(h.tenantDb, as, id, lease);

      const after = await readExecution(h.admin, id);
      if (!claims) {
        expect(claimed).toBeUndefined();
        expect(after).toEqual(before);
        return;
      }
      expect(after).toMatchObject({ status: to, lease_owner: 'worker-b', wake_at: null, finished_at: null });
      expect(after!.lease_until!.getTime()).toBeGreaterThan(Date.now() + 25_000);
      // A first claim starts it; a later one keeps when it started.
      if (a.status === 'queued') expect(after!.started_at).not.toBeNull();
      else expect(after!.started_at).toEqual(before!.started_at);
      expect(claimed).toMatchObject({ id, status: 'running', previous_status: a.status });
      if (a.status === 'queued') expect(claimed!.records).toBeUndefined();
      else expect(claimed!.records!.map((r) => [r.id, r.path, r.status, r.output])).toEqual([[steps[0], 'a', 'succeeded', { x: 1 }]]);
    });

    it('queued × two claims at once → running: exactly one worker holds the lease', async () => {
      const ctx = h.tenant();
      const id = await arrangeExecution(h.admin, ctx, 'queued');

      const results = await Promise.all(['worker-1', 'worker-2'].map((worker) => executionsRepository.claim(h.tenantDb, ctx, id, { worker, leaseMs: 30_000 })));

      const winner = results.findIndex((r) => r !== undefined);
      expect(results.filter((r) => r !== undefined)).toHaveLength(1);
      expect(await readExecution(h.admin, id)).toMatchObject({ status: 'running', lease_owner: `worker-${winner + 1}` });
    });
  });

  describe('run.step_records_json', () => {
    const records = (ctx: TenantContext, id: string) =>
      h.tenantDb.run(
        ctx,
        async (m) => (await m.query<{ r: { id: string; path: string; status: string }[] }[]>(`select run.step_records_json($1) as r`, [id]))[0].r,
      );

    it('an execution with steps → every step record of it, in id order, with the engine’s fields', async () => {
      const ctx = h.tenant();
      const id = await arrangeExecution(h.admin, ctx, 'waiting');
      const ids = [
        await arrangeStep(h.admin, ctx, id, { path: 'a', status: 'succeeded', type: 'transform', output: { x: 1 } }),
        await arrangeStep(h.admin, ctx, id, { path: 'b', status: 'waiting' }),
      ];
      const other = await arrangeExecution(h.admin, ctx, 'running');
      await arrangeStep(h.admin, ctx, other, { path: 'z', status: 'succeeded' });

      const got = await records(ctx, id);

      expect(got.map((r) => r.id)).toEqual([...ids].sort());
      expect(Object.keys(got[0]).sort()).toEqual(
        ['attempt', 'error', 'finished_at', 'id', 'input', 'output', 'path', 'started_at', 'status', 'step_id', 'type', 'wake_at'].sort(),
      );
    });

    it.each([
      ['an execution without steps', false],
      ["another tenant's execution", true],
    ])('%s → an empty array', async (_what, asOther) => {
      const ctx = h.tenant();
      const id = await arrangeExecution(h.admin, ctx, 'running');
      if (asOther) await arrangeStep(h.admin, ctx, id, { path: 'a', status: 'succeeded' });

      expect(await records(asOther ? otherTenant() : ctx, id)).toEqual([]);
    });
  });
});
