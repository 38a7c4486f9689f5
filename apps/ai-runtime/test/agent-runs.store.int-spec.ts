import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { TenantContext } from '@platform/db';
import type { ToolCall } from '@platform/messaging';
import { storeHarness, type StoreHarness } from '@platform/testing';
import type { AgentRunRow, LoopState } from '../src/agents/agent-run.record.js';
import { agentRunsRepository } from '../src/agents/agent-runs.repository.js';

/**
 * An agent run's life in ai.agent_runs, through the repository as the application role: running,
 * waiting for a person's approval of a tool call (with what resuming needs), claimed back to
 * running by the decision on that call (once, on any replica), finished. The approval outcome is
 * consumed tenant-wide (scope null), also for a customer's run.
 */
let h: StoreHarness;

beforeAll(async () => {
  h = await storeHarness(['ai-runtime'], 'ai_store');
}, 60_000);

afterAll(async () => {
  await h?.close();
});

const call = (name: string): ToolCall => ({ id: `call_${randomUUID().slice(0, 8)}`, type: 'function', function: { name, arguments: '{"order":1}' } });

function loop(queue: ToolCall[]): LoopState {
  return { messages: [{ role: 'user', content: 'refund order 1' }], queue, steps: 1, active_ms: 120, key_mode: 'live' };
}

async function start(ctx: TenantContext): Promise<string> {
  const id = randomUUID();
  await h.tenantDb.run(ctx, (m) =>
    agentRunsRepository.insert(m, {
      tenantId: ctx.tenantId,
      environmentId: ctx.environmentId,
      scopeId: ctx.scopeId ?? null,
      id,
      agentId: randomUUID(),
      executionId: null,
      input: { message: 'refund order 1' },
    }),
  );
  return id;
}

/** A run waiting for the approval of the first of two tool calls. */
async function waiting(ctx: TenantContext): Promise<{ id: string; first: ToolCall; second: ToolCall; taskId: string }> {
  const id = await start(ctx);
  const [first, second] = [call('refund'), call('notify')];
  const taskId = randomUUID();
  await h.tenantDb.run(ctx, (m) => agentRunsRepository.wait(m, id, { type: 'approval', tool: 'refund' }, loop([first, second]), taskId));
  return { id, first, second, taskId };
}

async function stored(id: string): Promise<AgentRunRow & { updated_at: Date }> {
  return (await h.admin.query<AgentRunRow & { updated_at: Date }>(`select * from ai.agent_runs where id = $1`, [id])).rows[0];
}

const claim = (ctx: TenantContext, id: string, toolCallId: string) => h.tenantDb.run(ctx, (m) => agentRunsRepository.claim(m, id, toolCallId));

describe('ai.agent_runs: from a run’s status × an event → the status and what was written', () => {
  it('started → running, no steps, no usage, owned by the caller’s customer', async () => {
    const ctx = { ...h.tenant(), scopeId: randomUUID() };
    const id = await start(ctx);
    expect(await stored(id)).toMatchObject({
      tenant_id: ctx.tenantId,
      scope_id: ctx.scopeId,
      status: 'running',
      steps: [],
      usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
      state: null,
      task_id: null,
      finished_at: null,
    });
  });

  it('running, two steps appended → both in order, usage summed', async () => {
    const ctx = h.tenant();
    const id = await start(ctx);
    await h.tenantDb.run(ctx, (m) =>
      agentRunsRepository.appendStep(m, id, { type: 'model', n: 1 }, { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 }),
    );
    await h.tenantDb.run(ctx, (m) =>
      agentRunsRepository.appendStep(m, id, { type: 'tool', n: 2 }, { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 }),
    );
    expect(await stored(id)).toMatchObject({
      status: 'running',
      steps: [
        { type: 'model', n: 1 },
        { type: 'tool', n: 2 },
      ],
      usage: { prompt_tokens: 13, completion_tokens: 7, total_tokens: 20 },
    });
  });

  it('running, waits for an approval → waiting_approval with the step, the loop state and the task', async () => {
    const ctx = h.tenant();
    const { id, first, second, taskId } = await waiting(ctx);
    expect(await stored(id)).toMatchObject({
      status: 'waiting_approval',
      steps: [{ type: 'approval', tool: 'refund' }],
      state: loop([first, second]),
      task_id: taskId,
    });
  });

  it.each([
    { event: 'the decision on the call it waits for', pick: (w: Waiting) => w.first.id, claimed: true },
    { event: 'a decision on the second queued call (not yet asked)', pick: (w: Waiting) => w.second.id, claimed: false },
    { event: 'a decision on an unknown call', pick: () => 'call_unknown', claimed: false },
  ])('waiting_approval, $event → claimed: $claimed', async ({ pick, claimed }) => {
    const ctx = h.tenant();
    const w = await waiting(ctx);
    const before = await stored(w.id);
    const row = await claim(ctx, w.id, pick(w));
    const after = await stored(w.id);
    if (claimed) {
      expect(row).toMatchObject({ id: w.id, status: 'running', state: loop([w.first, w.second]), task_id: w.taskId });
      expect(after).toMatchObject({ status: 'running', state: before.state, task_id: w.taskId });
    } else {
      expect(row).toBeUndefined();
      expect(after).toEqual(before);
    }
  });

  it('waiting_approval, the same decision delivered twice → the first claims, the second finds nothing', async () => {
    const ctx = h.tenant();
    const w = await waiting(ctx);
    const [a, b] = await Promise.all([claim(ctx, w.id, w.first.id), claim(ctx, w.id, w.first.id)]);
    expect([a, b].filter((r) => r !== undefined)).toHaveLength(1);
    expect((await stored(w.id)).status).toBe('running');
  });

  it.each([
    { from: 'running (never waited)', arrange: (ctx: TenantContext) => start(ctx) },
    {
      from: 'succeeded',
      arrange: async (ctx: TenantContext) => {
        const w = await waiting(ctx);
        await h.tenantDb.run(ctx, (m) => agentRunsRepository.finish(m, w.id, { status: 'succeeded', output: 'done', error: null }));
        return w.id;
      },
    },
  ])('$from, a decision arrives → nothing claimed, the row unchanged', async ({ arrange }) => {
    const ctx = h.tenant();
    const id = await arrange(ctx);
    const before = await stored(id);
    expect(await claim(ctx, id, 'call_any')).toBeUndefined();
    expect(await stored(id)).toEqual(before);
  });

  it.each([
    { from: 'running', outcome: { status: 'succeeded' as const, output: 'Refunded.', error: null } },
    { from: 'waiting_approval', outcome: { status: 'failed' as const, output: null, error: { code: 'approval_unavailable', message: 'no task service' } } },
  ])('$from, finished $outcome.status → the outcome written, state and task cleared, finished_at set', async ({ from, outcome }) => {
    const ctx = h.tenant();
    const id = from === 'running' ? await start(ctx) : (await waiting(ctx)).id;
    const row = await h.tenantDb.run(ctx, (m) => agentRunsRepository.finish(m, id, outcome));
    expect(row).toMatchObject({ status: outcome.status, output: outcome.output, error: outcome.error, state: null, task_id: null });
    expect(await stored(id)).toMatchObject({
      status: outcome.status,
      output: outcome.output,
      error: outcome.error,
      state: null,
      task_id: null,
      finished_at: expect.any(Date),
    });
  });
});

type Waiting = Awaited<ReturnType<typeof waiting>>;

describe('ai.agent_runs: who may see and move a customer’s run', () => {
  it.each([
    { caller: 'the tenant, tenant-wide (the approval outcome consumer)', make: (ctx: TenantContext) => ({ ...ctx, scopeId: null }), allowed: true },
    { caller: 'the customer itself', make: (ctx: TenantContext) => ctx, allowed: true },
    { caller: 'another customer of the tenant', make: (ctx: TenantContext) => ({ ...ctx, scopeId: randomUUID() }), allowed: false },
    { caller: 'another environment of the tenant', make: (ctx: TenantContext) => ({ ...ctx, environmentId: randomUUID(), scopeId: null }), allowed: false },
    { caller: 'another tenant', make: () => h.tenant(), allowed: false },
  ])('$caller → reads and claims: $allowed', async ({ make, allowed }) => {
    const ctx = { ...h.tenant(), scopeId: randomUUID() };
    const w = await waiting(ctx);
    const caller = make(ctx);
    expect((await h.tenantDb.run(caller, (m) => agentRunsRepository.get(m, w.id)))?.id).toBe(allowed ? w.id : undefined);
    expect((await claim(caller, w.id, w.first.id))?.id).toBe(allowed ? w.id : undefined);
    if (!allowed) {
      await h.tenantDb.run(caller, (m) => agentRunsRepository.finish(m, w.id, { status: 'failed', output: null, error: { code: 'x', message: 'hijacked' } }));
      await h.tenantDb.run(caller, (m) =>
        agentRunsRepository.appendStep(m, w.id, { type: 'forged' }, { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 }),
      );
    }
    expect(await stored(w.id)).toMatchObject({ status: allowed ? 'running' : 'waiting_approval', steps: [{ type: 'approval', tool: 'refund' }], error: null });
  });
});
