import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { TenantContext } from '@platform/db';
import { storeHarness, type StoreHarness } from '@platform/testing';
import type { ConnectionRow } from '../src/connections/connection.record.js';
import { connectionsRepository, type ConnectionChanges } from '../src/connections/connections.repository.js';
import { oauthStatesRepository } from '../src/oauth/oauth-states.repository.js';

/**
 * A connection's authorization in PostgreSQL, through the repositories as the application role:
 * its status (pending_authorization → active ⇄ needs_reauth, token refreshes counted) and the
 * single-use OAuth state of an authorization in progress. Connections are 'shared': a customer
 * reads the tenant's and writes only its own.
 */
let h: StoreHarness;

beforeAll(async () => {
  h = await storeHarness(['connection'], 'connection_store');
}, 60_000);

afterAll(async () => {
  await h?.close();
});

const sealed = (label: string) => ({ iv: Buffer.alloc(12, 1), ciphertext: Buffer.from(label), tag: Buffer.alloc(16, 2) });

async function connection(ctx: TenantContext, authType = 'oauth2_code'): Promise<ConnectionRow> {
  return h.tenantDb.run(ctx, (m) =>
    connectionsRepository.insert(m, {
      tenantId: ctx.tenantId,
      environmentId: ctx.environmentId,
      scopeId: ctx.scopeId ?? null,
      id: randomUUID(),
      name: 'crm',
      connectorId: 'acme-crm',
      authType,
      authSettings: { client_id: 'client', authorization_url: 'https://id.example.com/authorize', token_url: 'https://id.example.com/token' },
      settings: {},
      sealed: sealed('client secret'),
      status: authType === 'oauth2_code' ? 'pending_authorization' : 'active',
      tokenExpiresAt: null,
      createdBy: 'tenant_key:test',
    }),
  );
}

const update = (ctx: TenantContext, id: string, c: ConnectionChanges) => h.tenantDb.run(ctx, (m) => connectionsRepository.update(m, id, c));

async function stored(id: string): Promise<ConnectionRow> {
  return (await h.admin.query<ConnectionRow>(`select * from connection.connections where id = $1`, [id])).rows[0];
}

const expires = new Date(Date.now() + 3_600_000);
const AUTHORIZED: ConnectionChanges = { sealed: sealed('tokens'), tokenExpiresAt: expires, status: 'active', statusReason: null };
const REFRESHED: ConnectionChanges = { sealed: sealed('new tokens'), tokenExpiresAt: expires, refreshed: true, status: 'active', statusReason: null };
const REFUSED: ConnectionChanges = { status: 'needs_reauth', statusReason: 'token refresh refused: invalid_grant' };

describe('connection status: from a status × an event (as the OAuth callback and the token keeper write it) → the row', () => {
  it('created with oauth2_code → pending_authorization, no token; with an api key → active', async () => {
    const ctx = h.tenant();
    expect(await stored((await connection(ctx)).id)).toMatchObject({ status: 'pending_authorization', token_expires_at: null, token_refresh_count: 0 });
    expect(await stored((await connection(ctx, 'api_key')).id)).toMatchObject({ status: 'active' });
  });

  it.each<{ from: ConnectionChanges[]; fromName: string; event: ConnectionChanges; eventName: string; to: Partial<Record<keyof ConnectionRow, unknown>> }>([
    {
      fromName: 'pending_authorization',
      from: [],
      eventName: 'authorized (callback)',
      event: AUTHORIZED,
      to: {
        status: 'active',
        status_reason: null,
        token_expires_at: expires,
        token_refresh_count: 0,
        token_refreshed_at: null,
        secret_ciphertext: Buffer.from('tokens'),
      },
    },
    {
      fromName: 'pending_authorization',
      from: [],
      eventName: 'authorization refused (callback)',
      event: { status: 'needs_reauth', statusReason: 'authorization refused: access_denied' },
      to: { status: 'needs_reauth', status_reason: 'authorization refused: access_denied', secret_ciphertext: Buffer.from('client secret') },
    },
    {
      fromName: 'active',
      from: [AUTHORIZED],
      eventName: 'token refreshed',
      event: REFRESHED,
      to: { status: 'active', token_refresh_count: 1, token_refreshed_at: expect.any(Date), secret_ciphertext: Buffer.from('new tokens') },
    },
    {
      fromName: 'active, refreshed once',
      from: [AUTHORIZED, REFRESHED],
      eventName: 'token refreshed',
      event: REFRESHED,
      to: { status: 'active', token_refresh_count: 2 },
    },
    {
      fromName: 'active',
      from: [AUTHORIZED],
      eventName: 'refresh refused',
      event: REFUSED,
      to: { status: 'needs_reauth', status_reason: REFUSED.statusReason, secret_ciphertext: Buffer.from('tokens'), token_refresh_count: 0 },
    },
    {
      fromName: 'needs_reauth',
      from: [AUTHORIZED, REFUSED],
      eventName: 'authorized again',
      event: AUTHORIZED,
      to: { status: 'active', status_reason: null },
    },
    {
      fromName: 'needs_reauth',
      from: [AUTHORIZED, REFUSED],
      eventName: 'a rename (no status given)',
      event: { name: 'crm (eu)' },
      to: { status: 'needs_reauth', status_reason: REFUSED.statusReason, name: 'crm (eu)' },
    },
  ])('$fromName, $eventName → $to.status', async ({ from, event, to }) => {
    const ctx = h.tenant();
    const c = await connection(ctx);
    for (const change of from) await update(ctx, c.id, change);
    const answered = await update(ctx, c.id, event);
    expect(answered).toMatchObject(to);
    expect(await stored(c.id)).toMatchObject(to);
  });

  it('a test recorded → when and whether it passed, the status unchanged', async () => {
    const ctx = h.tenant();
    const c = await connection(ctx, 'api_key');
    await h.tenantDb.run(ctx, (m) => connectionsRepository.recordTest(m, c.id, false));
    expect(await stored(c.id)).toMatchObject({ status: 'active', last_test_ok: false, last_tested_at: expect.any(Date) });
  });
});

describe('connection rows: who reads and changes a tenant-wide and a customer’s connection', () => {
  it.each([
    { owner: 'tenant-wide', caller: 'a customer', reads: true, writes: false },
    { owner: 'tenant-wide', caller: 'another environment', reads: false, writes: false },
    { owner: 'tenant-wide', caller: 'another tenant', reads: false, writes: false },
    { owner: 'a customer', caller: 'the customer', reads: true, writes: true },
    { owner: 'a customer', caller: 'the tenant (tenant-wide)', reads: true, writes: true },
    { owner: 'a customer', caller: 'another customer', reads: false, writes: false },
  ])('owned by $owner, $caller → reads: $reads, writes: $writes', async ({ owner, caller, reads, writes }) => {
    const tenant = h.tenant();
    const customer = { ...tenant, scopeId: randomUUID() };
    const c = await connection(owner === 'tenant-wide' ? tenant : customer, 'api_key');
    const callers: Record<string, TenantContext> = {
      'a customer': { ...tenant, scopeId: randomUUID() },
      'another environment': { ...tenant, environmentId: randomUUID() },
      'another tenant': h.tenant(),
      'the customer': customer,
      'the tenant (tenant-wide)': tenant,
      'another customer': { ...tenant, scopeId: randomUUID() },
    };
    const ctx = callers[caller];
    expect((await h.tenantDb.run(ctx, (m) => connectionsRepository.get(m, c.id, null)))?.id).toBe(reads ? c.id : undefined);
    const changed = await update(ctx, c.id, REFUSED);
    expect(changed?.id).toBe(writes ? c.id : undefined);
    expect((await stored(c.id)).status).toBe(writes ? 'needs_reauth' : 'active');
    const deleted = await h.tenantDb.run(ctx, (m) => connectionsRepository.delete(m, c.id, null));
    expect(deleted).toBe(writes);
    expect(await stored(c.id)).toEqual(writes ? undefined : expect.objectContaining({ id: c.id }));
  });

  it("a customer's API lists only its own connections, though RLS lets it read the tenant's", async () => {
    const tenant = h.tenant();
    const customer = { ...tenant, scopeId: randomUUID() };
    const shared = await connection(tenant, 'api_key');
    const own = await connection(customer, 'api_key');
    const list = (c: TenantContext, own: string | null) =>
      h.tenantDb.run(c, (m) => connectionsRepository.list(m, { own, afterId: null, limit: 10 })).then((rows) => rows.map((r) => r.id).sort());
    expect(await list(customer, customer.scopeId)).toEqual([own.id]);
    expect(await list(customer, null)).toEqual([shared.id, own.id].sort());
    expect(await list(tenant, null)).toEqual([shared.id, own.id].sort());
    expect(await h.tenantDb.run(customer, (m) => connectionsRepository.get(m, shared.id, customer.scopeId))).toBeUndefined();
  });
});

async function state(ctx: TenantContext, connectionId: string, ttlSeconds = 600): Promise<string> {
  const id = randomUUID();
  await h.tenantDb.run(ctx, (m) =>
    oauthStatesRepository.insert(m, {
      tenantId: ctx.tenantId,
      environmentId: ctx.environmentId,
      scopeId: ctx.scopeId ?? null,
      id,
      connectionId,
      subject: 'user:1',
      verifier: sealed('verifier'),
      redirectUri: 'https://api.example.com/oauth/callback',
      returnUrl: null,
      ttlSeconds,
    }),
  );
  return id;
}

const take = (ctx: TenantContext, id: string) => h.tenantDb.run(ctx, (m) => oauthStatesRepository.take(m, id));
const stateCount = async (id: string) =>
  (await h.admin.query(`select count(*)::int as n from connection.oauth_states where id = $1`, [id])).rows[0] as { n: number };

describe('connection.oauth_states: from a state × taking it → the state answered or not, and whether it is left', () => {
  it.each([
    { from: 'live', ttl: 600, taken: 0, answered: true },
    { from: 'live, taken once already', ttl: 600, taken: 1, answered: false },
    { from: 'expired', ttl: -1, taken: 0, answered: false },
  ])('$from → answered: $answered, deleted', async ({ ttl, taken, answered }) => {
    const ctx = h.tenant();
    const c = await connection(ctx);
    const id = await state(ctx, c.id, ttl);
    for (let i = 0; i < taken; i++) await take(ctx, id);
    const row = await take(ctx, id);
    if (answered) expect(row).toMatchObject({ id, connection_id: c.id, subject: 'user:1', verifier_ciphertext: Buffer.from('verifier'), return_url: null });
    else expect(row).toBeUndefined();
    expect(await stateCount(id)).toEqual({ n: 0 });
  });

  it.each([
    { caller: 'another tenant', make: () => h.tenant() },
    { caller: 'another environment of the tenant', make: (ctx: TenantContext) => ({ ...ctx, environmentId: randomUUID() }) },
    { caller: 'another customer', make: (ctx: TenantContext) => ({ ...ctx, scopeId: randomUUID() }) },
  ])("a customer's live state, taken by $caller → nothing answered, the state left for its owner", async ({ make }) => {
    const ctx = { ...h.tenant(), scopeId: randomUUID() };
    const c = await connection(ctx);
    const id = await state(ctx, c.id);
    expect(await take(make(ctx), id)).toBeUndefined();
    expect(await stateCount(id)).toEqual({ n: 1 });
    expect((await take(ctx, id))?.id).toBe(id);
  });

  it('the connection deleted → its states go with it', async () => {
    const ctx = h.tenant();
    const c = await connection(ctx);
    const id = await state(ctx, c.id);
    await h.tenantDb.run(ctx, (m) => connectionsRepository.delete(m, c.id, null));
    expect(await stateCount(id)).toEqual({ n: 0 });
  });
});
