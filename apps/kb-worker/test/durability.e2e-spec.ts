import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { createTenant, e2eEnvironment, eventually, processExited, processIds, serviceEntry, startProcess, type TestTenant } from '@platform/testing';
import { addDocument, allDocuments, createKb, inBatches, waitAllReady } from './kb-helpers.js';

const env = e2eEnvironment();
const TOTAL = 120;

/** About 6 KB of distinct paragraphs: several chunks each, so a kill lands inside documents. */
function longDocument(i: number): string {
  const paragraphs = Array.from(
    { length: 12 },
    (_, p) =>
      `## Section ${p + 1} of report ${i}\n\nMeasurement ${i}-${p} recorded ${(i * 37 + p * 11) % 997} units at station ${p % 7}, ` +
      `with calibration drift of ${(i + p) % 13} percent and an operator note about sensor ${i % 29} near valve ${p * 3}. `.repeat(3),
  );
  return `# Field report ${i}\n\n${paragraphs.join('\n\n')}`;
}

describe('KB indexing through a SIGKILL of the KB worker', () => {
  let tenant: TestTenant;
  const db = new pg.Client({ connectionString: env.databaseUrl });

  beforeAll(async () => {
    await db.connect();
    tenant = await createTenant(env.gatewayUrl, env.adminToken, `kb-kill-${randomUUID().slice(0, 8)}`);
  });

  afterAll(async () => {
    await db.end();
  });

  it('finishes every document after a restart, with exactly its chunks and none twice', async () => {
    const kbId = await createKb(tenant.test_key, { name: 'reports', chunking: { size: 400, overlap: 60 } });
    await inBatches(
      Array.from({ length: TOTAL }, (_, i) => i),
      16,
      (i) => addDocument(tenant.test_key, kbId, { name: `report-${i}.md`, text: longDocument(i) }),
    );
    // Kill once indexing is under way: some documents ready, most not.
    await eventually(
      'indexing under way',
      async () => {
        const docs = await allDocuments(tenant.test_key, kbId);
        return docs.filter((d) => d.status === 'ready').length >= 5 ? true : undefined;
      },
      60_000,
      20,
    );
    const pid = processIds(env.pidDir, 'kb-worker')[0];
    process.kill(pid, 'SIGKILL');
    await processExited(pid);
    const atKill = await db.query<{ n: number }>(`select count(*)::int as n from kb.documents where knowledge_base_id = $1 and status = 'ready'`, [kbId]);
    process.stdout.write(`kb durability: killed with ${atKill.rows[0].n}/${TOTAL} documents ready\n`);
    const partial = await db.query<{ n: number }>(
      `select count(distinct c.document_id)::int as n from kb.chunks c join kb.documents d on d.id = c.document_id where d.knowledge_base_id = $1 and d.status <> 'ready'`,
      [kbId],
    );
    process.stdout.write(`kb durability: ${partial.rows[0].n} documents had some of their chunks stored when killed\n`);

    await startProcess({
      name: 'kb-worker',
      entry: serviceEntry('kb-worker'),
      env: env.serviceEnv['kb-worker'],
      healthUrl: `${env.serviceUrls['kb-worker']}/actuator/health`,
      pidDir: env.pidDir,
    });
    const docs = await waitAllReady(tenant.test_key, kbId, TOTAL, 120_000);

    const stored = await db.query<{ document_id: string; n: number; distinct_ordinals: number }>(
      `select document_id, count(*)::int as n, count(distinct (generation, ordinal))::int as distinct_ordinals
         from kb.chunks where knowledge_base_id = $1 group by document_id`,
      [kbId],
    );
    const byDoc = new Map(stored.rows.map((r) => [r.document_id, r]));
    for (const doc of docs) {
      const row = byDoc.get(doc.id as string);
      expect({ id: doc.id, n: row?.n, distinct: row?.distinct_ordinals }).toEqual({ id: doc.id, n: doc.chunk_count, distinct: doc.chunk_count });
      expect(doc.chunk_count).toBeGreaterThan(5);
    }
    const duplicates = await db.query(
      `select document_id, text, count(*) from kb.chunks where knowledge_base_id = $1 group by document_id, start_pos, text having count(*) > 1`,
      [kbId],
    );
    expect(duplicates.rows).toEqual([]);
  }, 240_000);
});
