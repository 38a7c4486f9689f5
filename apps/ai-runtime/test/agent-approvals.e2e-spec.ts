import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  call,
  createTenant,
  e2eEnvironment,
  eventually,
  processExited,
  processIds,
  serviceEntry,
  startProcess,
  withKey,
  type TestTenant,
} from '@platform/testing';
import { OpenAiStandIn } from './openai-stand-in.js';

const env = e2eEnvironment();
type Json = Record<string, unknown>;
const gw = (path: string, request?: Parameters<typeof call>[2]) => call<Json>(env.gatewayUrl, path, request);
const same = (a: { body: Json }, b: { body: Json }) => expect({ ...a.body, request_id: null }).toEqual({ ...b.body, request_id: null });

/** Kills the AI runtime (every replica the harness started) and starts it again; what waits must survive. */
async function restartAiRuntime(whileDown: () => Promise<void>): Promise<void> {
  const pids = processIds(env.pidDir, 'ai-runtime');
  expect(pids.length).toBeGreaterThan(0);
  for (const pid of pids) process.kill(pid, 'SIGKILL');
  for (const pid of pids) await processExited(pid);
  await whileDown();
  await startProcess({
    name: 'ai-runtime',
    entry: serviceEntry('ai-runtime'),
    env: env.serviceEnv['ai-runtime'],
    healthUrl: `${env.serviceUrls['ai-runtime']}/actuator/health`,
    pidDir: env.pidDir,
  });
}

/** The server-sent events of a streamed execute, parsed, in the order they came. */
async function streamed(path: string, key: string, body: Json): Promise<{ status: number; type: string | null; events: Json[] }> {
  const res = await fetch(`${env.gatewayUrl}${path}`, {
    method: 'POST',
    headers: { ...withKey(key), 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  const data = text
    .split('\n\n')
    .filter((chunk) => chunk.startsWith('data: '))
    .map((chunk) => chunk.slice(6));
  expect(data[data.length - 1]).toBe('[DONE]');
  return { status: res.status, type: res.headers.get('content-type'), events: data.slice(0, -1).map((d) => JSON.parse(d) as Json) };
}

describe('AI agent tools that need approval: a task, a wait, and the run resumed by the decision', () => {
  let tenant: TestTenant;
  let other: TestTenant;
  let workflowId: string;
  let provider: string;
  const standIn = new OpenAiStandIn();
  const key = () => withKey(tenant.test_key);

  const approvalAgent = async (): Promise<string> => {
    const res = await gw('/catalog/ai-agents', {
      headers: key(),
      body: {
        name: 'Refunds',
        model: `${provider}/scripted`,
        instructions: 'Refund with the tool.',
        tools: [
          {
            type: 'workflow',
            name: 'refund_order',
            description: 'Refund an order in full',
            workflow_id: workflowId,
            parameters: { type: 'object', properties: { order: { type: 'string' } }, required: ['order'] },
            requires_approval: true,
          },
        ],
      },
    });
    expect(res.status).toBe(201);
    return res.body.id as string;
  };

  /** Executes the agent with the model scripted to call the tool once, then to answer; returns the waiting run. */
  const waitingRun = async (agentId: string, answer: string): Promise<Json> => {
    standIn.script = [{ tool_calls: [{ name: 'refund_order', arguments: { order: 'A-17' } }] }, { content: answer }];
    const res = await gw(`/ai/agents/${agentId}/execute`, { headers: key(), body: { input: 'Refund order A-17' }, timeoutMs: 60_000 });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ status: 'waiting_approval', output: null, finished_at: null });
    expect(typeof res.body.task_id).toBe('string');
    return res.body;
  };

  const taskOf = (run: Json): Promise<Json> =>
    eventually('the approval task', async () => {
      const res = await gw(`/tasks?agent_run_id=${run.id as string}`, { headers: key() });
      return (res.body.data as Json[] | undefined)?.[0];
    });

  const finished = (runId: string): Promise<Json> =>
    eventually(
      `agent run ${runId} to end`,
      async () => {
        const res = await gw(`/ai/agent-runs/${runId}`, { headers: key() });
        return ['succeeded', 'failed'].includes(res.body.status as string) ? res.body : undefined;
      },
      60_000,
    );

  beforeAll(async () => {
    await standIn.start();
    [tenant, other] = await Promise.all([
      createTenant(env.gatewayUrl, env.adminToken, `approvals-${randomUUID().slice(0, 8)}`),
      createTenant(env.gatewayUrl, env.adminToken, `approvals-other-${randomUUID().slice(0, 8)}`),
    ]);
    provider = `standin-${randomUUID().slice(0, 6)}`;
    expect(
      (await gw('/ai/providers', { headers: key(), body: { name: provider, base_url: standIn.url, models: [{ id: 'scripted', kind: 'chat' }] } })).status,
    ).toBe(201);
    const wf = await gw('/api/v1/workflow/workflows', {
      headers: key(),
      body: { name: 'refund', steps: [{ id: 'refund', type: 'transform', input: { refunded: '{% input.order %}' } }] },
    });
    workflowId = wf.body.id as string;
  });

  afterAll(async () => {
    await standIn.stop();
  });

  it('approved: the task shows the call, the tool runs with the edited arguments, the run succeeds; other tenants get 404', async () => {
    const agentId = await approvalAgent();
    const seenBefore = standIn.seen.length;
    const run = await waitingRun(agentId, 'Refunded A-18.');
    const steps = run.steps as Json[];
    expect(steps.map((s) => s.type)).toEqual(['model', 'approval']);
    expect(steps[1]).toMatchObject({ status: 'waiting', tool: 'refund_order', task_id: run.task_id, arguments: '{"order":"A-17"}' });

    const task = await taskOf(run);
    expect(task).toMatchObject({
      id: run.task_id,
      type: 'approval',
      status: 'pending',
      origin: { type: 'agent_run', agent_run_id: run.id, agent_id: agentId, tool_call_id: steps[1].call_id },
      execution_id: null,
      context: { tool: 'refund_order', tool_type: 'workflow', arguments: { order: 'A-17' }, agent_name: 'Refunds' },
    });
    expect((await gw(`/tasks/${task.id as string}`, { headers: key() })).body).toMatchObject({ id: task.id, title: expect.stringContaining('refund_order') });

    // Another tenant: the same 404 as for unknown ids, for the task and the run; it cannot decide the task.
    const foreign = withKey(other.test_key);
    const unknown = randomUUID();
    same(await gw(`/tasks/${task.id as string}`, { headers: foreign }), await gw(`/tasks/${unknown}`, { headers: foreign }));
    expect((await gw(`/tasks/${task.id as string}`, { headers: foreign })).status).toBe(404);
    same(await gw(`/ai/agent-runs/${run.id as string}`, { headers: foreign }), await gw(`/ai/agent-runs/${unknown}`, { headers: foreign }));
    same(
      await gw(`/tasks/${task.id as string}/complete`, { headers: foreign, body: { decision: 'approve' } }),
      await gw(`/tasks/${unknown}/complete`, { headers: foreign, body: { decision: 'approve' } }),
    );
    expect((await gw(`/tasks?agent_run_id=${run.id as string}`, { headers: foreign })).body.data).toEqual([]);

    const bad = await gw(`/tasks/${task.id as string}/complete`, { headers: key(), body: { decision: 'approve', data: { arguments: { order: 17 } } } });
    expect(bad.status).toBe(400);
    const done = await gw(`/tasks/${task.id as string}/complete`, {
      headers: key(),
      body: { decision: 'approve', data: { arguments: { order: 'A-18' }, comment: 'A-18 was meant' } },
    });
    expect(done.status).toBe(200);

    const end = await finished(run.id as string);
    expect(end).toMatchObject({ status: 'succeeded', output: 'Refunded A-18.', task_id: null, error: null });
    const all = end.steps as Json[];
    expect(all.map((s) => `${s.type as string}${s.status ? `:${s.status as string}` : ''}`)).toEqual([
      'model',
      'approval:waiting',
      'approval:approved',
      'tool',
      'model',
    ]);
    expect(all[2]).toMatchObject({ task_id: task.id, comment: 'A-18 was meant', edited: true, arguments: '{"order":"A-18"}' });
    expect(String(all[2].decided_by)).toMatch(/^api_key:/);
    expect(all[3]).toMatchObject({ tool: 'refund_order', arguments: '{"order":"A-18"}', output: { status: 'succeeded', output: { refunded: 'A-18' } } });
    const second = standIn.seen.slice(seenBefore)[1].body.messages as Json[];
    expect(second[second.length - 1]).toMatchObject({ role: 'tool', content: expect.stringContaining('A-18') });
    expect((await gw(`/tasks/${task.id as string}`, { headers: key() })).body).toMatchObject({ status: 'completed', decision: 'approve' });
  });

  it('rejected: the tool is not called and the model is told who rejected it and why', async () => {
    const agentId = await approvalAgent();
    const seenBefore = standIn.seen.length;
    const run = await waitingRun(agentId, 'I could not refund A-17: it was rejected.');
    const task = await taskOf(run);
    const done = await gw(`/tasks/${task.id as string}/complete`, {
      headers: key(),
      body: { decision: 'reject', data: { comment: 'Outside the refund window' } },
    });
    expect(done.status).toBe(200);

    const end = await finished(run.id as string);
    expect(end).toMatchObject({ status: 'succeeded', output: 'I could not refund A-17: it was rejected.' });
    const all = end.steps as Json[];
    expect(all.map((s) => s.type)).toEqual(['model', 'approval', 'approval', 'tool', 'model']);
    expect(all[2]).toMatchObject({ status: 'rejected', comment: 'Outside the refund window' });
    expect(all[3]).toMatchObject({ tool: 'refund_order', error: { code: 'approval_rejected' } });
    const toolTurn = (standIn.seen.slice(seenBefore)[1].body.messages as Json[]).at(-1)!;
    expect(toolTurn.role).toBe('tool');
    expect(toolTurn.content).toContain('rejected this call');
    expect(toolTurn.content).toContain('Outside the refund window');
    expect(toolTurn.content).toContain('api_key:');
  });

  it('streams the run: the model call, the approval wait and the waiting run; without approval the tool call and the result', async () => {
    const agentId = await approvalAgent();
    standIn.script = [{ tool_calls: [{ name: 'refund_order', arguments: { order: 'A-17' } }] }];
    const waiting = await streamed(`/ai/agents/${agentId}/execute`, tenant.test_key, { input: 'Refund order A-17', stream: true });
    expect(waiting.status).toBe(200);
    expect(waiting.type).toContain('text/event-stream');
    expect(waiting.events.map((e) => e.type)).toEqual(['run', 'model', 'approval', 'result']);
    const runId = waiting.events[0].run_id as string;
    expect(waiting.events[2]).toMatchObject({ run_id: runId, status: 'waiting', tool: 'refund_order' });
    expect(waiting.events[3].run).toMatchObject({ id: runId, status: 'waiting_approval', task_id: waiting.events[2].task_id });

    const plain = await gw('/catalog/ai-agents', {
      headers: key(),
      body: {
        name: 'Plain',
        model: `${provider}/scripted`,
        instructions: 'x',
        tools: [{ type: 'workflow', name: 'refund_order', description: 'Refund', workflow_id: workflowId }],
      },
    });
    standIn.script = [{ tool_calls: [{ name: 'refund_order', arguments: { order: 'B-2' } }] }, { content: 'Refunded B-2.' }];
    const run = await streamed(`/ai/agents/${plain.body.id as string}/execute`, tenant.test_key, { input: 'Refund B-2', stream: true });
    expect(run.events.map((e) => e.type)).toEqual(['run', 'model', 'tool', 'model', 'result']);
    expect(run.events[2]).toMatchObject({ tool: 'refund_order', output: { output: { refunded: 'B-2' } } });
    expect(run.events[4].run).toMatchObject({ status: 'succeeded', output: 'Refunded B-2.' });
    const stored = await gw(`/ai/agent-runs/${run.events[0].run_id as string}`, { headers: key() });
    expect(stored.body.steps).toEqual((run.events[4].run as Json).steps);

    // An unknown agent is still a plain 404, not a stream.
    const missing = await gw(`/ai/agents/${randomUUID()}/execute`, { headers: key(), body: { input: 'x', stream: true } });
    expect(missing.status).toBe(404);
  });

  it('an ai.agent step whose agent waits for approval fails with agent_waiting_approval', async () => {
    const agentId = await approvalAgent();
    standIn.script = [{ tool_calls: [{ name: 'refund_order', arguments: { order: 'C-3' } }] }];
    const wf = await gw('/api/v1/workflow/workflows', {
      headers: key(),
      body: { name: `wf-${randomUUID().slice(0, 8)}`, steps: [{ id: 'agent', type: 'ai.agent', input: { agent_id: agentId, input: 'Refund C-3' } }] },
    });
    const started = await gw('/v1/automations/run', { headers: key(), body: { automation_id: wf.body.id, input: {} } });
    expect(started.status).toBe(202);
    const done = await eventually(
      'the execution to end',
      async () => {
        const e = await gw(`/run/executions/${started.body.run_id as string}`, { headers: key() });
        return ['succeeded', 'failed'].includes(e.body.status as string) ? e.body : undefined;
      },
      60_000,
    );
    expect(done).toMatchObject({ status: 'failed', error: { code: 'agent_waiting_approval' } });
  });

  it('a waiting run survives a restart of the AI runtime; a decision made while it is down resumes it when it is back', async () => {
    const agentId = await approvalAgent();
    const run = await waitingRun(agentId, 'Refunded A-17 after the restart.');
    const task = await taskOf(run);
    await restartAiRuntime(async () => {
      expect((await gw(`/tasks/${task.id as string}/complete`, { headers: key(), body: { decision: 'approve' } })).status).toBe(200);
    });
    const end = await finished(run.id as string);
    expect(end).toMatchObject({ status: 'succeeded', output: 'Refunded A-17 after the restart.' });
    expect((end.steps as Json[]).map((s) => s.type)).toEqual(['model', 'approval', 'approval', 'tool', 'model']);
    expect((end.steps as Json[])[3]).toMatchObject({ arguments: '{"order":"A-17"}', output: { status: 'succeeded' } });
  });
});
