import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { createTenant, e2eEnvironment, withKey, type TestTenant } from '@platform/testing';
import { TARGETS, distractors, htmlOf, markdownOf, pdfLines, pdfOf, type TargetDocument } from './corpus.js';
import { addDocument, at, createKb, gw, inBatches, waitAllReady, type Json } from './kb-helpers.js';

const env = e2eEnvironment();

function targetBody(t: TargetDocument): Json {
  if (t.format === 'pdf') return { name: t.name, content_base64: pdfOf(pdfLines(t)).toString('base64') };
  if (t.format === 'html') return { name: t.name, text: htmlOf(t) };
  return { name: t.name, text: markdownOf(t), content_type: 'text/markdown' };
}

describe('knowledge bases: indexing, hybrid retrieval, answers', () => {
  let tenant: TestTenant;
  let kbId: string;
  const targetIds = new Map<string, string>();
  const key = () => withKey(tenant.test_key);
  const db = new pg.Client({ connectionString: env.databaseUrl });

  beforeAll(async () => {
    await db.connect();
    tenant = await createTenant(env.gatewayUrl, env.adminToken, `kb-${randomUUID().slice(0, 8)}`);
    kbId = await createKb(tenant.test_key, { name: 'handbook', chunking: { size: 600, overlap: 80 } });
    const docs = [
      ...TARGETS.map((t) => ({ target: t, body: targetBody(t) })),
      ...distractors().map((d) => ({ target: undefined, body: { name: d.name, text: d.text } })),
    ];
    const ids = await inBatches(docs, 16, (d) => addDocument(tenant.test_key, kbId, d.body));
    docs.forEach((d, i) => d.target && targetIds.set(d.target.name, ids[i]));
    await waitAllReady(tenant.test_key, kbId, 200);
  }, 180_000);

  afterAll(async () => {
    await db.end();
  });

  it('puts the right document in the top 3 for at least 18 of the 20 questions', async () => {
    const misses: string[] = [];
    for (const t of TARGETS) {
      const res = await gw(`/kb/knowledge-bases/${kbId}/query`, { headers: key(), body: { query: t.question, top_k: 3 } });
      expect(res.status).toBe(200);
      const docs = (res.body.chunks as Json[]).map((c) => c.document_id);
      if (!docs.includes(targetIds.get(t.name))) misses.push(t.question);
    }
    process.stdout.write(`retrieval: ${TARGETS.length - misses.length}/20 in the top 3; missed: ${JSON.stringify(misses)}\n`);
    expect(misses.length).toBeLessThanOrEqual(2);
  });

  it('extracts HTML without markup and PDF text, and records positions', async () => {
    const pdf = await gw(`/kb/knowledge-bases/${kbId}/documents/${targetIds.get('telescope-manual.pdf')}`, { headers: key() });
    expect(pdf.body).toMatchObject({ status: 'ready', content_type: 'application/pdf', source: { type: 'upload' } });
    const res = await gw(`/kb/knowledge-bases/${kbId}/query`, {
      headers: key(),
      body: { query: 'solar filter refractor', top_k: 1, filter: { document_ids: [targetIds.get('telescope-manual.pdf')] } },
    });
    const chunk = (res.body.chunks as Json[])[0];
    expect(chunk.text).toContain('solar filter');
    const html = await gw(`/kb/knowledge-bases/${kbId}/query`, {
      headers: key(),
      body: { query: 'WireGuard tunnel', top_k: 1, filter: { document_ids: [targetIds.get('vpn-setup.html')] } },
    });
    const htmlChunk = (html.body.chunks as Json[])[0];
    expect(htmlChunk.text).toContain('WireGuard');
    expect(htmlChunk.text).not.toMatch(/<p>|color:red|Home \| Help/);
    expect(at(htmlChunk, 'position.heading')).toBe('Connecting to the corporate VPN');
    expect(at(htmlChunk, 'position.start')).toEqual(expect.any(Number));
  });

  it('answers with citations to the chunks used', async () => {
    const res = await gw(`/kb/knowledge-bases/${kbId}/query`, { headers: key(), body: { query: TARGETS[0].question, top_k: 3, answer: true } });
    expect(res.status).toBe(200);
    expect(res.body.model).toBe('local/extractive-summary');
    expect(res.body.answer).toMatch(/^\[extractive summary/);
    expect(res.body.answer).toContain('thirty days');
    const cited = (res.body.citations as Json[]).map((c) => c.document_id);
    expect(cited).toContain(targetIds.get('refund-policy.md'));
  });

  it('indexes a document fetched from a URL', async () => {
    const server: Server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html><body><h1>Canteen menu</h1><p>The canteen serves lentil soup every Thursday at noon.</p></body></html>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/menu.html`;
      const id = await addDocument(tenant.test_key, kbId, { url });
      await waitAllReady(tenant.test_key, kbId, 201, 30_000);
      const doc = await gw(`/kb/knowledge-bases/${kbId}/documents/${id}`, { headers: key() });
      expect(doc.body).toMatchObject({ name: 'menu.html', content_type: 'text/html', source: { type: 'url', url } });
      const res = await gw(`/kb/knowledge-bases/${kbId}/query`, { headers: key(), body: { query: 'Which day is lentil soup served?', top_k: 1 } });
      expect(at(res.body, 'chunks.0.document_id')).toBe(id);
    } finally {
      server.close();
    }
  });

  it('deleting a document removes its chunks from the store and from answers', async () => {
    const id = targetIds.get('coffee-machine.md')!;
    const before = await db.query<{ n: number }>(`select count(*)::int as n from kb.chunks where document_id = $1`, [id]);
    expect(before.rows[0].n).toBeGreaterThan(0);
    expect((await gw(`/kb/knowledge-bases/${kbId}/documents/${id}`, { method: 'DELETE', headers: key() })).status).toBe(204);
    const after = await db.query<{ n: number }>(`select count(*)::int as n from kb.chunks where document_id = $1`, [id]);
    expect(after.rows[0].n).toBe(0);
    const res = await gw(`/kb/knowledge-bases/${kbId}/query`, { headers: key(), body: { query: 'espresso machine descaling citric acid', top_k: 10 } });
    expect((res.body.chunks as Json[]).map((c) => c.document_id)).not.toContain(id);
    expect((await gw(`/kb/knowledge-bases/${kbId}/documents/${id}`, { headers: key() })).status).toBe(404);
  });

  it('re-indexes a document without duplicating its chunks', async () => {
    const id = targetIds.get('bike-scheme.md')!;
    const before = (await gw(`/kb/knowledge-bases/${kbId}/documents/${id}`, { headers: key() })).body.chunk_count as number;
    expect((await gw(`/kb/knowledge-bases/${kbId}/documents/${id}/reindex`, { method: 'POST', headers: key() })).status).toBe(202);
    await waitAllReady(tenant.test_key, kbId, 200, 30_000);
    const rows = await db.query<{ n: number }>(`select count(*)::int as n from kb.chunks where document_id = $1`, [id]);
    expect(rows.rows[0].n).toBe(before);
  });

  it('refuses bad input naming the field', async () => {
    const two = await gw(`/kb/knowledge-bases/${kbId}/documents`, { headers: key(), body: { text: 'x', url: 'https://example.com/a' } });
    expect(two.status).toBe(400);
    expect(at(two.body, 'details.0.field')).toBe('text');
    const type = await gw(`/kb/knowledge-bases/${kbId}/documents`, { headers: key(), body: { text: 'x', content_type: 'image/png' } });
    expect(at(type.body, 'details.0.field')).toBe('content_type');
    const model = await gw('/kb/knowledge-bases', { headers: key(), body: { name: 'x', embedding_model: 'nope/model' } });
    expect(model.status).toBe(400);
    expect(at(model.body, 'details.0.field')).toBe('embedding_model');
    const overlap = await gw('/kb/knowledge-bases', { headers: key(), body: { name: 'x', chunking: { size: 400, overlap: 300 } } });
    expect(at(overlap.body, 'details.0.field')).toBe('chunking.overlap');
    const topK = await gw(`/kb/knowledge-bases/${kbId}/query`, { headers: key(), body: { query: 'x', top_k: 500 } });
    expect(at(topK.body, 'details.0.field')).toBe('top_k');
    expect((await gw(`/kb/knowledge-bases/${randomUUID()}/documents`, { headers: key(), body: { text: 'x' } })).status).toBe(404);
  });

  it('reports the vector mode in the health check', async () => {
    const health = await gw('/actuator/health/kb-worker');
    expect(at(health.body, 'components.vector_search.status')).toBe('UP');
    expect(['exact', 'pgvector']).toContain(at(health.body, 'components.vector_search.details.mode'));
  });
});
