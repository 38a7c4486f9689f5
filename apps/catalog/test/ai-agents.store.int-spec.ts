import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { TenantContext } from '@platform/db';
import { storeHarness, type StoreHarness } from '@platform/testing';
import type { AiAgentRow } from '../src/ai-agents/ai-agent.record.js';
import { aiAgentsRepository, type AgentFields } from '../src/ai-agents/ai-agents.repository.js';

/**
 * AI agent configurations in catalog.ai_agents, through the repository as the application role:
 * created, changed field by field, deleted; tenant-wide agents are readable by customers, who
 * write only their own ('shared').
 */
let h: StoreHarness;

beforeAll(async () => {
  h = await storeHarness(['catalog'], 'catalog_agents');
}, 60_000);

afterAll(async () => {
  await h?.close();
});

const FIELDS: Required<AgentFields> = {
  name: 'Support assistant',
  description: 'Answers customers',
  model: 'openai/gpt-4o-mini',
  instructions: 'Be brief.',
  tools: [{ type: 'knowledge_base', name: 'handbook', description: 'The handbook', knowledge_base_id: randomUUID() }] as Required<AgentFields>['tools'],
  maxSteps: 8,
  timeBudgetSeconds: 120,
};

function create(ctx: TenantContext): Promise<AiAgentRow> {
  return h.tenantDb.run(ctx, (m) =>
    aiAgentsRepository.insert(m, { tenantId: ctx.tenantId, environmentId: ctx.environmentId, scopeId: ctx.scopeId ?? null, id: randomUUID() }, FIELDS),
  );
}

async function stored(id: string): Promise<AiAgentRow | undefined> {
  return (await h.admin.query<AiAgentRow>(`select * from catalog.ai_agents where id = $1`, [id])).rows[0];
}

describe('catalog.ai_agents: an agent × a change → the row written', () => {
  it('created → every field stored, owned by the caller’s scope', async () => {
    const ctx = { ...h.tenant(), scopeId: randomUUID() };
    const row = await create(ctx);
    expect(await stored(row.id)).toMatchObject({
      scope_id: ctx.scopeId,
      name: FIELDS.name,
      description: FIELDS.description,
      model: FIELDS.model,
      instructions: FIELDS.instructions,
      tools: FIELDS.tools,
      max_steps: 8,
      time_budget_seconds: 120,
    });
  });

  it.each<{ change: AgentFields; to: Partial<AiAgentRow> }>([
    { change: { name: 'EU assistant' }, to: { name: 'EU assistant', description: FIELDS.description, max_steps: 8 } },
    { change: { tools: [] }, to: { tools: [], name: FIELDS.name } },
    { change: { maxSteps: 12, timeBudgetSeconds: 60 }, to: { max_steps: 12, time_budget_seconds: 60 } },
    { change: {}, to: { name: FIELDS.name, tools: FIELDS.tools, max_steps: 8 } },
    // The update keeps a field given as null (coalesce): the API offers no way to clear one.
    { change: { description: null, maxSteps: null }, to: { description: FIELDS.description, max_steps: 8 } },
  ])('$change → $to', async ({ change, to }) => {
    const ctx = h.tenant();
    const row = await create(ctx);
    const updated = await h.tenantDb.run(ctx, (m) => aiAgentsRepository.update(m, row.id, change));
    expect(updated).toMatchObject(to);
    expect(await stored(row.id)).toMatchObject({ ...to, model: FIELDS.model, instructions: FIELDS.instructions });
  });

  it('deleted → gone; deleted again → nothing to delete', async () => {
    const ctx = h.tenant();
    const row = await create(ctx);
    expect(await h.tenantDb.run(ctx, (m) => aiAgentsRepository.delete(m, row.id))).toBe(true);
    expect(await stored(row.id)).toBeUndefined();
    expect(await h.tenantDb.run(ctx, (m) => aiAgentsRepository.delete(m, row.id))).toBe(false);
  });
});

describe('catalog.ai_agents: who reads, changes and deletes an agent', () => {
  it.each([
    { owner: 'tenant-wide', caller: 'the tenant', reads: true, writes: true },
    { owner: 'tenant-wide', caller: 'a customer', reads: true, writes: false },
    { owner: 'tenant-wide', caller: 'another environment', reads: false, writes: false },
    { owner: 'tenant-wide', caller: 'another tenant', reads: false, writes: false },
    { owner: 'a customer', caller: 'the customer', reads: true, writes: true },
    { owner: 'a customer', caller: 'the tenant', reads: true, writes: true },
    { owner: 'a customer', caller: 'another customer', reads: false, writes: false },
  ])('owned by $owner, $caller → reads: $reads, writes: $writes', async ({ owner, caller, reads, writes }) => {
    const tenant = h.tenant();
    const customer = { ...tenant, scopeId: randomUUID() };
    const row = await create(owner === 'tenant-wide' ? tenant : customer);
    const callers: Record<string, TenantContext> = {
      'the tenant': tenant,
      'a customer': { ...tenant, scopeId: randomUUID() },
      'the customer': customer,
      'another customer': { ...tenant, scopeId: randomUUID() },
      'another environment': { ...tenant, environmentId: randomUUID() },
      'another tenant': h.tenant(),
    };
    const ctx = callers[caller];
    expect((await h.tenantDb.run(ctx, (m) => aiAgentsRepository.get(m, row.id)))?.id).toBe(reads ? row.id : undefined);
    expect((await h.tenantDb.run(ctx, (m) => aiAgentsRepository.list(m, null, 10))).map((r) => r.id)).toEqual(reads ? [row.id] : []);
    expect((await h.tenantDb.run(ctx, (m) => aiAgentsRepository.update(m, row.id, { name: 'changed' })))?.id).toBe(writes ? row.id : undefined);
    expect((await stored(row.id))?.name).toBe(writes ? 'changed' : FIELDS.name);
    expect(await h.tenantDb.run(ctx, (m) => aiAgentsRepository.delete(m, row.id))).toBe(writes);
    expect(await stored(row.id)).toEqual(writes ? undefined : expect.objectContaining({ id: row.id }));
  });

  it('a customer cannot create an agent for another customer or tenant-wide', async () => {
    const tenant = h.tenant();
    const customer = { ...tenant, scopeId: randomUUID() };
    for (const scopeId of [null, randomUUID()])
      await expect(
        h.tenantDb.run(customer, (m) =>
          aiAgentsRepository.insert(m, { tenantId: tenant.tenantId, environmentId: tenant.environmentId, scopeId, id: randomUUID() }, FIELDS),
        ),
      ).rejects.toThrow(/row-level security/);
  });
});
