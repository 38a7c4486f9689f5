import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { isFinished } from '@platform/messaging';
import { call, createTenant, e2eEnvironment, eventually, withKey, type TestTenant } from '@platform/testing';
import { OpenAiStandIn } from './openai-stand-in.js';

const env = e2eEnvironment();
type Json = Record<string, unknown>;
const gw = (path: string, request?: Parameters<typeof call>[2]) => call<Json>(env.gatewayUrl, path, request);
const at = (value: unknown, path: string): unknown => path.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], value);
const same = (a: { body: Json }, b: { body: Json }) => expect({ ...a.body, request_id: null }).toEqual({ ...b.body, request_id: null });

describe('AI agents with workflow and knowledge-base tools, and the AI steps of workflows', () => {
  let tenant: TestTenant;
  let kbId: string;
  let workflowId: string;
  let provider: string;
  const standIn = new OpenAiStandIn();
  const key = () => withKey(tenant.test_key);

  const agent = async (body: Json, k = tenant.test_key): Promise<string> => {
    const res = await gw('/catalog/ai-agents', { headers: withKey(k), body });
    expect(res.status).toBe(201);
    return res.body.id as string;
  };

  const runWorkflow = async (steps: unknown[], input: Json): Promise<Json> => {
    const wf = await gw('/api/v1/workflow/workflows', { headers: key(), body: { name: `wf-${randomUUID().slice(0, 8)}`, steps } });
    expect(wf.status).toBe(201);
    const started = await gw('/v1/automations/run', { headers: key(), body: { automation_id: wf.body.id, input } });
    expect(started.status).toBe(202);
    return eventually(
      'the execution to finish',
      async () => {
        const e = await gw(`/run/executions/${started.body.run_id as string}`, { headers: key() });
        return isFinished(e.body.status as string) ? e.body : undefined;
      },
      60_000,
    );
  };

  beforeAll(async () => {
    await standIn.start();
    tenant = await createTenant(env.gatewayUrl, env.adminToken, `agents-${randomUUID().slice(0, 8)}`);
    provider = `standin-${randomUUID().slice(0, 6)}`;
    expect(
      (await gw('/ai/providers', { headers: key(), body: { name: provider, base_url: standIn.url, models: [{ id: 'scripted', kind: 'chat' }] } })).status,
    ).toBe(201);
    const kb = await gw('/kb/knowledge-bases', { headers: key(), body: { name: 'handbook' } });
    kbId = kb.body.id as string;
    await gw(`/kb/knowledge-bases/${kbId}/documents`, {
      headers: key(),
      body: { name: 'refunds.md', text: '# Refunds\n\nCustomers may ask for a refund within thirty days of the purchase date.' },
    });
    const wf = await gw('/api/v1/workflow/workflows', {
      headers: key(),
      body: { name: 'order status', steps: [{ id: 'look', type: 'transform', input: { order: '{% input.order %}', shipped: true, carrier: 'DHL' } }] },
    });
    workflowId = wf.body.id as string;
    await eventually('the handbook indexed', async () => {
      const docs = await gw(`/kb/knowledge-bases/${kbId}/documents`, { headers: key() });
      return (docs.body.data as Json[])[0]?.status === 'ready' ? true : undefined;
    });
  });

  afterAll(async () => {
    await standIn.stop();
  });

  it('answers a question that needs a workflow and the knowledge base, recording every call', async () => {
    const id = await agent({
      name: 'Support',
      model: `${provider}/scripted`,
      instructions: 'Answer with the tools.',
      tools: [
        { type: 'workflow', name: 'order_status', description: 'Order status by number', workflow_id: workflowId },
        { type: 'knowledge_base', name: 'handbook', description: 'Search the handbook', knowledge_base_id: kbId },
      ],
    });
    standIn.script = [
      {
        tool_calls: [
          { name: 'order_status', arguments: { order: 'A-17' } },
          { name: 'handbook', arguments: { query: 'How long is the refund window?' } },
        ],
      },
      { content: 'Order A-17 has shipped with DHL, and refunds are possible within thirty days.' },
    ];
    const seenBefore = standIn.seen.length;
    const res = await gw(`/ai/agents/${id}/execute`, {
      headers: key(),
      body: { input: 'Has order A-17 shipped, and how long can I ask for a refund?' },
      timeoutMs: 60_000,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'succeeded',
      output: 'Order A-17 has shipped with DHL, and refunds are possible within thirty days.',
      error: null,
    });
    const steps = res.body.steps as Json[];
    expect(steps.map((s) => s.type)).toEqual(['model', 'tool', 'tool', 'model']);
    expect(steps[1]).toMatchObject({
      tool: 'order_status',
      tool_type: 'workflow',
      output: { status: 'succeeded', output: { order: 'A-17', shipped: true, carrier: 'DHL' } },
    });
    expect(JSON.stringify(steps[2].output)).toContain('thirty days');
    expect(at(res.body, 'usage.total_tokens')).toBe(36);

    // The model was given the tools and, on its second call, both results.
    const calls = standIn.seen.slice(seenBefore).map((s) => s.body);
    expect((calls[0].tools as Json[]).map((t) => at(t, 'function.name'))).toEqual(['order_status', 'handbook']);
    const toolTurns = (calls[1].messages as Json[]).filter((m) => m.role === 'tool');
    expect(toolTurns).toHaveLength(2);
    expect(toolTurns[0].content).toContain('DHL');

    const stored = await gw(`/ai/agent-runs/${res.body.id as string}`, { headers: key() });
    expect(stored.status).toBe(200);
    expect(stored.body.steps).toEqual(res.body.steps);
    const listed = await gw('/ai/agents', { headers: key() });
    expect((listed.body.data as Json[]).map((a) => a.id)).toContain(id);
    expect(listed.body).toHaveProperty('next_cursor');
    // Paginated like every list (issue 28): `limit` and `cursor` reach the catalog.
    await agent({ name: 'Second', model: `${provider}/scripted`, instructions: 'x' });
    const all = (await gw('/ai/agents', { headers: key() })).body.data as Json[];
    expect(all.length).toBeGreaterThan(1);
    const first = await gw('/ai/agents?limit=1', { headers: key() });
    expect([(first.body.data as Json[]).map((a) => a.id), typeof first.body.next_cursor]).toEqual([[all[0].id], 'string']);
    const second = await gw(`/ai/agents?limit=1&cursor=${first.body.next_cursor as string}`, { headers: key() });
    expect((second.body.data as Json[]).map((a) => a.id)).toEqual([all[1].id]);
    expect((await gw('/ai/agents?cursor=bm9wZQ', { headers: key() })).body.code).toBe('invalid_cursor');
  });

  it('stops at the step limit, and reports tool failures to the model', async () => {
    const id = await agent({
      name: 'Looping',
      model: `${provider}/scripted`,
      instructions: 'x',
      max_steps: 3,
      tools: [{ type: 'knowledge_base', name: 'handbook', description: 'Search', knowledge_base_id: kbId }],
    });
    standIn.script = [{ tool_calls: [{ name: 'nonexistent', arguments: {} }] }, { tool_calls: [{ name: 'handbook', arguments: { query: 'refund' } }] }];
    const res = await gw(`/ai/agents/${id}/execute`, { headers: key(), body: { input: 'loop' }, timeoutMs: 60_000 });
    expect(res.body).toMatchObject({ status: 'failed', error: { code: 'step_limit' } });
    expect((res.body.steps as Json[])[1]).toMatchObject({ tool: 'nonexistent', error: { code: 'unknown_tool' } });
  });

  it('lists LLM models in the catalog and validates agents', async () => {
    const models = await gw('/catalog/llm-models', { headers: key() });
    expect((models.body.data as Json[]).map((m) => m.id)).toEqual(expect.arrayContaining(['local/extractive-summary', `${provider}/scripted`]));
    // Paginated like every list (issue 28).
    const firstModel = await gw('/catalog/llm-models?limit=1', { headers: key() });
    expect([(firstModel.body.data as Json[]).length, typeof firstModel.body.next_cursor]).toEqual([1, 'string']);
    const nextModel = await gw(`/catalog/llm-models?limit=1&cursor=${firstModel.body.next_cursor as string}`, { headers: key() });
    expect(((nextModel.body.data as Json[])[0].id as string) > ((firstModel.body.data as Json[])[0].id as string)).toBe(true);
    const bad = await gw('/catalog/ai-agents', { headers: key(), body: { name: 'x', model: 'nope/x', instructions: 'x' } });
    expect(bad.status).toBe(400);
    expect(at(bad.body, 'details.0.field')).toBe('model');
    const noWorkflow = await gw('/catalog/ai-agents', {
      headers: key(),
      body: { name: 'x', model: 'local/extractive-summary', instructions: 'x', tools: [{ type: 'workflow', name: 'w', description: 'w' }] },
    });
    expect(at(noWorkflow.body, 'details.0.field')).toBe('tools[0].workflow_id');
  });

  it("creates an agent with the OpenAPI's example model on a new tenant (no provider added)", async () => {
    const docs = (await gw('/v3/api-docs')).body as { paths: Record<string, { post?: Json }> };
    const body = at(docs.paths['/catalog/ai-agents'].post, 'requestBody.content.application/json.schema.$ref') as string;
    const schema = at(docs, body.slice(2).replace(/\//g, '.')) as { properties: { model: { example: string } } };
    const fresh = await createTenant(env.gatewayUrl, env.adminToken, `agents-new-${randomUUID().slice(0, 6)}`);
    const created = await gw('/catalog/ai-agents', {
      headers: withKey(fresh.test_key),
      body: { name: 'x', model: schema.properties.model.example, instructions: 'x' },
    });
    expect([created.status, created.body.model]).toEqual([201, schema.properties.model.example]);
  });

  it('runs ai.generate, ai.embed, kb.query and ai.agent steps in a workflow', async () => {
    const agentId = await agent({ name: 'Summariser', model: 'local/extractive-summary', instructions: 'Summarise.' });
    const done = await runWorkflow(
      [
        { id: 'gen', type: 'ai.generate', input: { model: 'local/extractive-summary', prompt: '{% input.text %}' } },
        { id: 'emb', type: 'ai.embed', input: { input: ['one', 'two'] } },
        { id: 'kb', type: 'kb.query', input: { knowledge_base_id: kbId, query: 'refund window', top_k: 1 } },
        { id: 'agent', type: 'ai.agent', input: { agent_id: agentId, input: '{% steps.kb.output.chunks[0].text %}' } },
        {
          id: 'out',
          type: 'transform',
          input: { gen: '{% steps.gen.output.text %}', dims: '{% steps.emb.output.dimensions %}', agent: '{% steps.agent.output %}' },
        },
      ],
      { text: 'Solar panels convert sunlight into electricity. Batteries store the electricity for the night.' },
    );
    expect(done.status).toBe('succeeded');
    const output = done.output as Json;
    expect(output.gen).toMatch(/^\[extractive summary/);
    expect(output.dims).toBe(384);
    expect(output.agent).toMatchObject({ status: 'succeeded' });
    expect(String(at(output, 'agent.output'))).toContain('thirty days');
    const failing = await runWorkflow([{ id: 'gen', type: 'ai.generate', input: { model: 'nope/x', prompt: 'x' } }], {});
    expect(failing.status).toBe('failed');
    expect(at(failing, 'error.code')).toBe('validation_failed');
  });

  it('keeps agents and agent runs to their tenant and customer: 404 identical to an unknown id', async () => {
    const id = await agent({ name: 'Private', model: 'local/extractive-summary', instructions: 'x' });
    const run = await gw(`/ai/agents/${id}/execute`, { headers: key(), body: { input: 'Batteries store electricity for the night hours.' } });
    expect(run.body.status).toBe('succeeded');
    const other = await createTenant(env.gatewayUrl, env.adminToken, `agents-other-${randomUUID().slice(0, 6)}`);
    const foreign = withKey(other.test_key);
    const unknown = randomUUID();
    same(await gw(`/ai/agent-runs/${run.body.id as string}`, { headers: foreign }), await gw(`/ai/agent-runs/${unknown}`, { headers: foreign }));
    expect((await gw(`/ai/agent-runs/${run.body.id as string}`, { headers: foreign })).status).toBe(404);
    same(
      await gw(`/ai/agents/${id}/execute`, { headers: foreign, body: { input: 'x' } }),
      await gw(`/ai/agents/${unknown}/execute`, { headers: foreign, body: { input: 'x' } }),
    );
    expect((await gw(`/catalog/ai-agents/${id}`, { headers: foreign })).status).toBe(404);
    expect((await gw(`/catalog/ai-agents/${id}`, { method: 'DELETE', headers: foreign })).status).toBe(404);
    expect((await gw('/ai/agents', { headers: foreign })).body.data).toEqual([]);

    const customerKey = async (name: string) => {
      const c = await gw('/portal/customers', { headers: key(), body: { name } });
      const k = await gw('/account/api-keys', {
        headers: key(),
        body: { name: `${name}-key`, type: 'customer', customer_id: c.body.id, scopes: ['ai:run', 'ai:write'], data_plane_id: tenant.sandbox_data_plane_id },
      });
      return k.body.key as string;
    };
    const [k1, k2] = await Promise.all([customerKey(`c1-${randomUUID().slice(0, 6)}`), customerKey(`c2-${randomUUID().slice(0, 6)}`)]);
    const own = await agent({ name: 'c1 agent', model: 'local/extractive-summary', instructions: 'x' }, k1);
    const ownRun = await gw(`/ai/agents/${own}/execute`, { headers: withKey(k1), body: { input: 'Customer one asks about invoices and payment terms.' } });
    expect(ownRun.body.status).toBe('succeeded');
    same(await gw(`/ai/agent-runs/${ownRun.body.id as string}`, { headers: withKey(k2) }), await gw(`/ai/agent-runs/${unknown}`, { headers: withKey(k2) }));
    expect((await gw(`/ai/agents/${own}/execute`, { headers: withKey(k2), body: { input: 'x' } })).status).toBe(404);
    // A customer uses tenant-wide agents but cannot change them; the tenant sees the customer's run.
    expect((await gw(`/ai/agents/${id}/execute`, { headers: withKey(k2), body: { input: 'Tenant agents serve customers too, every day.' } })).body.status).toBe(
      'succeeded',
    );
    expect((await gw(`/catalog/ai-agents/${id}`, { method: 'DELETE', headers: withKey(k2) })).status).toBe(404);
    expect((await gw(`/ai/agent-runs/${ownRun.body.id as string}`, { headers: key() })).status).toBe(200);
  });
});
