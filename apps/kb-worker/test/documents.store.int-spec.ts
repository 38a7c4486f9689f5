import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { TenantContext } from '@platform/db';
import { storeHarness, type StoreHarness } from '@platform/testing';
import type { DocumentRow } from '../src/documents/document.record.js';
import { documentsRepository } from '../src/documents/documents.repository.js';
import { knowledgeBasesRepository } from '../src/knowledge-bases/knowledge-bases.repository.js';
import { chunksRepository, type NewChunk } from '../src/search/chunks.repository.js';

/**
 * A document's indexing in PostgreSQL, through the repositories the index worker uses, as the
 * application role: queued → indexing under a lease (claimed once per generation) → ready with its
 * chunks made live, or failed; re-queued as a new generation whose old chunks go. Knowledge bases,
 * documents and chunks are 'shared': customers read the tenant's and write their own.
 */
let h: StoreHarness;

beforeAll(async () => {
  h = await storeHarness(['kb-worker'], 'kb_store');
}, 60_000);

afterAll(async () => {
  await h?.close();
});

const LEASE = 30_000;

async function knowledgeBase(ctx: TenantContext): Promise<string> {
  const id = randomUUID();
  await h.tenantDb.run(ctx, (m) =>
    knowledgeBasesRepository.insert(m, {
      tenantId: ctx.tenantId,
      environmentId: ctx.environmentId,
      scopeId: ctx.scopeId ?? null,
      id,
      name: 'handbook',
      description: null,
      embeddingModel: 'local/hash-384',
      answerModel: 'local/extractive',
      chunkSize: 800,
      chunkOverlap: 100,
    }),
  );
  return id;
}

async function document(ctx: TenantContext, kbId?: string): Promise<DocumentRow> {
  const kb = kbId ?? (await knowledgeBase(ctx));
  return h.tenantDb.run(ctx, (m) =>
    documentsRepository.insert(m, {
      tenantId: ctx.tenantId,
      environmentId: ctx.environmentId,
      scopeId: ctx.scopeId ?? null,
      id: randomUUID(),
      knowledgeBaseId: kb,
      name: 'leave.md',
      contentType: 'text/markdown',
      source: { type: 'upload' },
      content: Buffer.from('# Leave\nTwenty-five days a year.'),
      metadata: { team: 'hr' },
    }),
  );
}

const claim = (ctx: TenantContext, d: Pick<DocumentRow, 'id'>, generation: number) =>
  h.tenantDb.run(ctx, (m) => documentsRepository.claim(m, d.id, generation, LEASE));
const finish = (ctx: TenantContext, d: DocumentRow, generation: number, status: 'ready' | 'failed', chunkCount = 2) =>
  h.tenantDb.run(ctx, (m) => documentsRepository.finish(m, d.id, generation, { status, error: status === 'failed' ? 'unreadable PDF' : null, chunkCount }));
const requeue = (ctx: TenantContext, d: DocumentRow) => h.tenantDb.run(ctx, (m) => documentsRepository.requeue(m, d.knowledge_base_id, d.id));

const chunk = (ordinal: number): NewChunk => ({
  id: randomUUID(),
  ordinal,
  heading: 'Leave',
  text: `part ${ordinal}`,
  start: ordinal * 10,
  end: ordinal * 10 + 9,
  embedding: [0.1, 0.2, 0.3],
});
const storeChunks = (ctx: TenantContext, d: DocumentRow, generation: number, ordinals: number[]) =>
  h.tenantDb.run(ctx, (m) =>
    chunksRepository.insertMany(
      m,
      { tenantId: ctx.tenantId, environmentId: ctx.environmentId, scopeId: d.scope_id, knowledgeBaseId: d.knowledge_base_id, documentId: d.id, generation },
      ordinals.map(chunk),
      false,
    ),
  );

interface Stored {
  status: string;
  generation: number;
  error: string | null;
  chunk_count: number;
  lease_until: Date | null;
  indexed_at: Date | null;
}

async function stored(id: string): Promise<Stored> {
  return (await h.admin.query<Stored>(`select status, generation, error, chunk_count, lease_until, indexed_at from kb.documents where id = $1`, [id])).rows[0];
}

async function chunks(documentId: string): Promise<{ generation: number; ordinal: number; live: boolean }[]> {
  return (
    await h.admin.query<{ generation: number; ordinal: number; live: boolean }>(
      `select generation, ordinal, live from kb.chunks where document_id = $1 order by generation, ordinal`,
      [documentId],
    )
  ).rows;
}

/** Arranges a document in a state, as the worker would have left it. */
async function inState(ctx: TenantContext, state: string): Promise<DocumentRow> {
  const d = await document(ctx);
  if (state === 'queued') return d;
  await claim(ctx, d, 0);
  if (state === 'indexing, lease live') return d;
  if (state === 'indexing, lease ran out') {
    await h.admin.query(`update kb.documents set lease_until = now() - interval '1 second' where id = $1`, [d.id]);
    return d;
  }
  await finish(ctx, d, 0, state === 'ready' ? 'ready' : 'failed');
  return d;
}

describe('kb.documents claim: from a status × an index work item → taken or not', () => {
  it.each([
    { from: 'queued', generation: 0, claimed: true },
    { from: 'indexing, lease live', generation: 0, claimed: false },
    { from: 'indexing, lease ran out', generation: 0, claimed: true },
    { from: 'ready', generation: 0, claimed: false },
    { from: 'failed', generation: 0, claimed: false },
    { from: 'queued', generation: 1, claimed: false },
  ])('$from, item of generation $generation → claimed: $claimed', async ({ from, generation, claimed }) => {
    const ctx = h.tenant();
    const d = await inState(ctx, from);
    const before = await stored(d.id);
    const row = await claim(ctx, d, generation);
    const after = await stored(d.id);
    if (claimed) {
      expect(row).toMatchObject({ id: d.id, status: 'indexing', generation: 0, content: Buffer.from('# Leave\nTwenty-five days a year.') });
      expect(after.status).toBe('indexing');
      expect(after.lease_until!.getTime()).toBeGreaterThan(Date.now() + LEASE / 2);
    } else {
      expect(row).toBeUndefined();
      expect(after).toEqual(before);
    }
  });

  it('the same item twice at once → claimed once', async () => {
    const ctx = h.tenant();
    const d = await document(ctx);
    const answers = await Promise.all([claim(ctx, d, 0), claim(ctx, d, 0)]);
    expect(answers.filter((a) => a !== undefined)).toHaveLength(1);
  });
});

describe('kb.documents finish and requeue: from a status × an outcome → the document and its chunks', () => {
  it('indexing, chunks stored, ready → ready with its count and time, its chunks live', async () => {
    const ctx = h.tenant();
    const d = await inState(ctx, 'indexing, lease live');
    await storeChunks(ctx, d, 0, [0, 1]);
    expect(await chunks(d.id)).toEqual([
      { generation: 0, ordinal: 0, live: false },
      { generation: 0, ordinal: 1, live: false },
    ]);
    await finish(ctx, d, 0, 'ready');
    expect(await stored(d.id)).toMatchObject({ status: 'ready', chunk_count: 2, lease_until: null, indexed_at: expect.any(Date), error: null });
    expect((await chunks(d.id)).every((c) => c.live)).toBe(true);
  });

  it('indexing, a resumed attempt stores chunks again → none doubled', async () => {
    const ctx = h.tenant();
    const d = await inState(ctx, 'indexing, lease live');
    await storeChunks(ctx, d, 0, [0, 1]);
    expect(await h.tenantDb.run(ctx, (m) => chunksRepository.ordinals(m, d.id, 0))).toEqual(new Set([0, 1]));
    await storeChunks(ctx, d, 0, [1, 2]);
    expect((await chunks(d.id)).map((c) => c.ordinal)).toEqual([0, 1, 2]);
  });

  it('indexing, failed → failed with the error, no indexed time, chunks not live', async () => {
    const ctx = h.tenant();
    const d = await inState(ctx, 'indexing, lease live');
    await storeChunks(ctx, d, 0, [0]);
    await finish(ctx, d, 0, 'failed', 0);
    expect(await stored(d.id)).toMatchObject({ status: 'failed', error: 'unreadable PDF', chunk_count: 0, indexed_at: null, lease_until: null });
    expect(await chunks(d.id)).toEqual([{ generation: 0, ordinal: 0, live: false }]);
  });

  it.each(['ready', 'failed', 'indexing, lease live'])('%s, re-queued → queued as generation 1, error cleared, the old chunks gone', async (from) => {
    const ctx = h.tenant();
    const d = await inState(ctx, from);
    await storeChunks(ctx, d, 0, [0, 1]);
    const row = await requeue(ctx, d);
    expect(row).toMatchObject({ status: 'queued', generation: 1, error: null, chunk_count: 0 });
    expect(await stored(d.id)).toMatchObject({ status: 'queued', generation: 1, lease_until: null });
    expect(await chunks(d.id)).toEqual([]);
  });

  /** Re-indexed (POST .../reindex) while an indexer still works on generation 0, which then stores a chunk and finishes. */
  async function lateIndexer(): Promise<{ ctx: TenantContext; d: DocumentRow }> {
    const ctx = h.tenant();
    const d = await inState(ctx, 'indexing, lease live');
    await requeue(ctx, d);
    await storeChunks(ctx, d, 0, [0]);
    await h.tenantDb.run(ctx, (m) => documentsRepository.extendLease(m, d.id, 0, LEASE));
    await finish(ctx, d, 0, 'ready');
    return { ctx, d };
  }

  it('re-queued while an indexer works on generation 0 → its late lease and finish leave the document queued; generation 1 is claimed', async () => {
    const { ctx, d } = await lateIndexer();
    expect(await stored(d.id)).toMatchObject({ status: 'queued', generation: 1, lease_until: null, indexed_at: null, chunk_count: 0 });
    expect(await claim(ctx, d, 1)).toMatchObject({ status: 'indexing', generation: 1 });
  });

  /** finish() makes chunks live only when its generation is still the document's (found by this tier). */
  it('re-queued while an indexer works on generation 0 → the chunks of its late finish do not become live', async () => {
    const { d } = await lateIndexer();
    expect(await chunks(d.id)).toEqual([{ generation: 0, ordinal: 0, live: false }]);
  });

  it('the reconciler’s scan finds queued documents and expired leases, not live leases or finished ones', async () => {
    const ctx = h.tenant();
    const states = ['queued', 'indexing, lease live', 'indexing, lease ran out', 'ready', 'failed'];
    const docs = await Promise.all(states.map((s) => inState(ctx, s)));
    await h.admin.query(`update kb.documents set updated_at = now() - interval '1 minute' where tenant_id = $1`, [ctx.tenantId]);
    const stale = await h.systemDb.run('test: the reconciler scan', (m) => documentsRepository.stale(m, 1_000, 10_000));
    const found = new Set(stale.map((s) => s.id));
    expect(docs.map((d) => found.has(d.id))).toEqual([true, false, true, false, false]);
  });

  it('counts the reconciler’s re-queues, fails a document it gives up on (its generation only), and a new generation counts from 0', async () => {
    const ctx = h.tenant();
    const d = await inState(ctx, 'indexing, lease ran out');
    const scan = async () => {
      await h.admin.query(`update kb.documents set updated_at = now() - interval '1 minute' where id = $1`, [d.id]);
      return (await h.systemDb.run('test: scan', (m) => documentsRepository.stale(m, 1_000, 10_000))).find((s) => s.id === d.id);
    };
    const first = await scan();
    expect(first?.requeues).toBe(0);
    await h.systemDb.run('test: re-queued', (m) => documentsRepository.touch(m, [first!]));
    await h.systemDb.run('test: re-queued', (m) => documentsRepository.touch(m, [first!]));
    const counted = await scan();
    expect(counted?.requeues).toBe(2);
    // A give-up for an older generation changes nothing; for the current one the document fails with the reason.
    await h.systemDb.run('test: give up', (m) => documentsRepository.giveUp(m, [{ ...counted!, generation: counted!.generation - 1 }], 'old'));
    expect((await stored(d.id)).status).toBe('indexing');
    await h.systemDb.run('test: give up', (m) => documentsRepository.giveUp(m, [counted!], 'Indexing made no progress'));
    expect(await stored(d.id)).toMatchObject({ status: 'failed', error: 'Indexing made no progress', lease_until: null });
    expect(await scan()).toBeUndefined();
    await h.tenantDb.run(ctx, (m) => documentsRepository.requeue(m, d.knowledge_base_id, d.id));
    expect((await scan())?.requeues).toBe(0);
  });
});

describe('kb.documents: who may claim and finish a document', () => {
  it.each([
    { owner: 'tenant-wide', caller: 'the tenant', moves: true, reads: true },
    { owner: 'tenant-wide', caller: 'a customer', moves: false, reads: true },
    { owner: 'a customer', caller: 'the customer', moves: true, reads: true },
    { owner: 'a customer', caller: 'another customer', moves: false, reads: false },
    { owner: 'a customer', caller: 'another tenant', moves: false, reads: false },
    { owner: 'tenant-wide', caller: 'another environment', moves: false, reads: false },
  ])('owned by $owner, $caller → reads: $reads, claims and finishes: $moves', async ({ owner, caller, moves, reads }) => {
    const tenant = h.tenant();
    const customer = { ...tenant, scopeId: randomUUID() };
    const kb = await knowledgeBase(tenant);
    const d = await document(owner === 'tenant-wide' ? tenant : customer, kb);
    const callers: Record<string, TenantContext> = {
      'the tenant': tenant,
      'a customer': { ...tenant, scopeId: randomUUID() },
      'the customer': customer,
      'another customer': { ...tenant, scopeId: randomUUID() },
      'another tenant': h.tenant(),
      'another environment': { ...tenant, environmentId: randomUUID() },
    };
    const ctx = callers[caller];
    expect((await h.tenantDb.run(ctx, (m) => documentsRepository.get(m, kb, d.id)))?.id).toBe(reads ? d.id : undefined);
    expect((await claim(ctx, d, 0))?.id).toBe(moves ? d.id : undefined);
    await finish(ctx, d, 0, 'failed', 0);
    expect((await stored(d.id)).status).toBe(moves ? 'failed' : 'queued');
  });
});
