import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { TenantContext } from '@platform/db';
import { storeHarness, type StoreHarness } from '@platform/testing';
import { embedsRepository, type EmbedRow } from '../src/embeds/embeds.repository.js';
import { publishedWorkflowsRepository, type PublishedWorkflowChanges, type PublishedWorkflowRow } from '../src/publishing/published-workflows.repository.js';

/**
 * The portal's writes in PostgreSQL, through its repositories as the application role: a published
 * workflow's visibility (all customers, or a list; checked in the query, the table has no scope)
 * and an embed's revocation (embeds are owned by their customer).
 */
let h: StoreHarness;

beforeAll(async () => {
  h = await storeHarness(['portal'], 'portal_store');
}, 60_000);

afterAll(async () => {
  await h?.close();
});

async function publish(ctx: TenantContext, visibility: { all_customers: boolean; customer_ids: string[] }): Promise<PublishedWorkflowRow> {
  return h.tenantDb.run(ctx, (m) =>
    publishedWorkflowsRepository.insert(m, {
      tenant_id: ctx.tenantId,
      environment_id: ctx.environmentId,
      id: randomUUID(),
      workflow_id: randomUUID(),
      ...visibility,
      title: 'Request a refund',
      description: 'Refunds within 30 days',
      input_form: { type: 'object', properties: { order: { type: 'string' } } },
    }),
  );
}

async function stored(id: string): Promise<PublishedWorkflowRow | undefined> {
  return (await h.admin.query<PublishedWorkflowRow>(`select * from portal.published_workflows where id = $1`, [id])).rows[0];
}

const visibleTo = async (ctx: TenantContext, id: string, customer: string | null) => {
  const one = await h.tenantDb.run(ctx, (m) => publishedWorkflowsRepository.get(m, id, customer));
  const listed = await h.tenantDb.run(ctx, (m) => publishedWorkflowsRepository.list(m, { customerId: customer, afterId: null, limit: 50 }));
  expect(listed.some((r) => r.id === id)).toBe(one !== undefined);
  return one !== undefined;
};

const A = '00000000-0000-4000-8000-00000000000a';
const B = '00000000-0000-4000-8000-00000000000b';

describe('published workflows: a visibility × who asks → seen or not (get and list agree)', () => {
  it.each([
    { visibility: 'all customers', v: { all_customers: true, customer_ids: [] }, asker: A, seen: true },
    { visibility: 'customers [A]', v: { all_customers: false, customer_ids: [A] }, asker: A, seen: true },
    { visibility: 'customers [A]', v: { all_customers: false, customer_ids: [A] }, asker: B, seen: false },
    { visibility: 'no customer', v: { all_customers: false, customer_ids: [] }, asker: A, seen: false },
    { visibility: 'no customer', v: { all_customers: false, customer_ids: [] }, asker: null, seen: true },
  ])('$visibility, asked by $asker → seen: $seen', async ({ v, asker, seen }) => {
    const ctx = h.tenant();
    const row = await publish(ctx, v);
    expect(await visibleTo(ctx, row.id, asker)).toBe(seen);
  });
});

describe('published workflows: from a publication × a change → the row written and who sees it', () => {
  it.each<{ from: { all_customers: boolean; customer_ids: string[] }; change: PublishedWorkflowChanges; to: Partial<PublishedWorkflowRow>; seenByB: boolean }>([
    {
      from: { all_customers: false, customer_ids: [A] },
      change: { all_customers: true, customer_ids: [] },
      to: { all_customers: true, customer_ids: [] },
      seenByB: true,
    },
    {
      from: { all_customers: true, customer_ids: [] },
      change: { all_customers: false, customer_ids: [A] },
      to: { all_customers: false, customer_ids: [A] },
      seenByB: false,
    },
    { from: { all_customers: false, customer_ids: [A] }, change: { customer_ids: [A, B] }, to: { all_customers: false, customer_ids: [A, B] }, seenByB: true },
    {
      from: { all_customers: false, customer_ids: [A] },
      change: { title: 'Refunds' },
      to: { title: 'Refunds', description: 'Refunds within 30 days', customer_ids: [A] },
      seenByB: false,
    },
    { from: { all_customers: false, customer_ids: [A] }, change: { description: null }, to: { description: null, title: 'Request a refund' }, seenByB: false },
  ])('$from × $change → $to (seen by B: $seenByB)', async ({ from, change, to, seenByB }) => {
    const ctx = h.tenant();
    const row = await publish(ctx, from);
    const updated = await h.tenantDb.run(ctx, (m) => publishedWorkflowsRepository.update(m, row.id, change));
    expect(updated).toMatchObject(to);
    expect(await stored(row.id)).toMatchObject({ ...to, input_form: row.input_form, workflow_id: row.workflow_id });
    expect((await stored(row.id))!.updated_at.getTime()).toBeGreaterThanOrEqual(row.updated_at.getTime());
    expect(await visibleTo(ctx, row.id, B)).toBe(seenByB);
  });

  it('deleted → gone; deleted again → nothing to delete', async () => {
    const ctx = h.tenant();
    const row = await publish(ctx, { all_customers: true, customer_ids: [] });
    expect(await h.tenantDb.run(ctx, (m) => publishedWorkflowsRepository.delete(m, row.id))).toBe(true);
    expect(await stored(row.id)).toBeUndefined();
    expect(await h.tenantDb.run(ctx, (m) => publishedWorkflowsRepository.delete(m, row.id))).toBe(false);
  });

  it.each([
    { caller: 'another tenant', make: () => h.tenant() },
    { caller: 'another environment of the tenant', make: (ctx: TenantContext) => ({ ...ctx, environmentId: randomUUID() }) },
  ])('$caller cannot read, change or delete a publication, even one for all customers', async ({ make }) => {
    const ctx = h.tenant();
    const row = await publish(ctx, { all_customers: true, customer_ids: [] });
    const other = make(ctx);
    expect(await visibleTo(other, row.id, null)).toBe(false);
    expect(await h.tenantDb.run(other, (m) => publishedWorkflowsRepository.update(m, row.id, { title: 'hijacked', all_customers: false }))).toBeUndefined();
    expect(await h.tenantDb.run(other, (m) => publishedWorkflowsRepository.delete(m, row.id))).toBe(false);
    expect(await stored(row.id)).toMatchObject({ title: 'Request a refund', all_customers: true });
  });
});

async function embed(ctx: TenantContext, customer: string): Promise<EmbedRow> {
  return h.tenantDb.run({ ...ctx, scopeId: customer }, (m) =>
    embedsRepository.insert(m, {
      tenant_id: ctx.tenantId,
      environment_id: ctx.environmentId,
      scope_id: customer,
      id: randomUUID(),
      kind: 'form',
      target_id: randomUUID(),
      allowed_origins: ['https://shop.example.com'],
      rate_limit_per_minute: 60,
      expires_at: new Date(Date.now() + 86_400_000),
      created_by: 'tenant_key:test',
    }),
  );
}

const revokedAt = async (id: string) =>
  (await h.admin.query<{ revoked_at: Date | null }>(`select revoked_at from portal.embeds where id = $1`, [id])).rows[0].revoked_at;

describe('embeds: from an embed’s state × revoke → revoked, once', () => {
  it('active, revoked → revoked_at set; revoked again → answered, the first instant kept', async () => {
    const ctx = h.tenant();
    const e = await embed(ctx, A);
    expect(e.revoked_at).toBeNull();
    expect(await h.tenantDb.run(ctx, (m) => embedsRepository.revoke(m, e.id))).toBe(true);
    const first = await revokedAt(e.id);
    expect(first).toEqual(expect.any(Date));
    expect(await h.tenantDb.run(ctx, (m) => embedsRepository.revoke(m, e.id))).toBe(true);
    expect(await revokedAt(e.id)).toEqual(first);
  });

  it.each([
    { caller: 'the tenant (tenant-wide)', make: (ctx: TenantContext) => ctx, allowed: true },
    { caller: 'the bound customer', make: (ctx: TenantContext) => ({ ...ctx, scopeId: A }), allowed: true },
    { caller: 'another customer', make: (ctx: TenantContext) => ({ ...ctx, scopeId: B }), allowed: false },
    { caller: 'another tenant', make: () => h.tenant(), allowed: false },
  ])('$caller → reads and revokes: $allowed', async ({ make, allowed }) => {
    const ctx = h.tenant();
    const e = await embed(ctx, A);
    const caller = make(ctx);
    expect((await h.tenantDb.run(caller, (m) => embedsRepository.get(m, e.id)))?.id).toBe(allowed ? e.id : undefined);
    expect(await h.tenantDb.run(caller, (m) => embedsRepository.revoke(m, e.id))).toBe(allowed);
    expect((await revokedAt(e.id)) !== null).toBe(allowed);
  });

  it('a customer cannot create an embed bound to another customer', async () => {
    const ctx = h.tenant();
    await expect(
      h.tenantDb.run({ ...ctx, scopeId: B }, (m) =>
        embedsRepository.insert(m, {
          tenant_id: ctx.tenantId,
          environment_id: ctx.environmentId,
          scope_id: A,
          id: randomUUID(),
          kind: 'runs',
          target_id: randomUUID(),
          allowed_origins: [],
          rate_limit_per_minute: 60,
          expires_at: new Date(Date.now() + 60_000),
          created_by: null,
        }),
      ),
    ).rejects.toThrow(/row-level security/);
  });
});
