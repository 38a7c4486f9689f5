// Knowledge bases: documents of ~2 KB indexed per second with the built-in local embedder (accept,
// extract, chunk, embed over NATS, store), and hybrid query latency (vector + full text + rank
// fusion, the query embedded by the AI runtime) over a knowledge base of 10,000 chunks, in each
// vector mode this machine has (pgvector only where the server has the extension).
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { call, createTenant } from '@platform/testing';
import { percentile, progress } from '../harness.js';

export const name = 'kb';
export const services = ['account', 'ai-runtime', 'kb-worker'];
const adminToken = randomBytes(32).toString('base64url');
export const env = {
  PLATFORM_ADMIN_TOKEN: adminToken,
  MASTER_KEY: randomBytes(32).toString('base64'),
  RATE_LIMIT_ENABLED: 'false',
  KB_INDEX_CONCURRENCY: '8',
};

const WORDS = (
  'invoice refund customer server backup network policy account payment travel office security laptop printer meeting budget ' +
  'report schedule warehouse shipment order delivery contract supplier inventory audit release deploy cluster database query ' +
  'index storage bucket volume replica failover latency throughput incident outage alert escalation ticket support agent ' +
  'manager employee onboarding training holiday leave expense receipt approval review quarter forecast revenue margin tax ' +
  'compliance privacy consent retention archive encryption certificate password token session login permission role team ' +
  'project milestone deadline roadmap feature bug patch version upgrade migration schema table column export import vendor'
).split(' ');

/** Deterministic pseudo-random text: `n` sentences of 8–16 words from the vocabulary. */
function text(seed, sentences) {
  let x = seed * 2654435761 + 1;
  const next = () => (x = (x * 1103515245 + 12345) % 2147483648) / 2147483648;
  const out = [];
  for (let s = 0; s < sentences; s++) {
    const length = 8 + Math.floor(next() * 9);
    const words = Array.from({ length }, () => WORDS[Math.floor(next() * WORDS.length)]);
    out.push(`${words[0][0].toUpperCase()}${words.join(' ').slice(1)} ${seed}.`);
  }
  return out;
}

/** A ~2 KB Markdown document with two sections. */
function documentText(i) {
  const body = text(i, 22);
  return `# Document ${i}\n\n${body.slice(0, 11).join(' ')}\n\n## Details\n\n${body.slice(11).join(' ')}\n`;
}

async function inBatches(count, limit, work) {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < count) await work(next++);
    }),
  );
}

async function waitIndexed(db, kbId) {
  for (;;) {
    const { rows } = await db.query(
      `select count(*) filter (where status in ('queued', 'indexing'))::int as owed, count(*) filter (where status = 'failed')::int as failed,
              coalesce(sum(chunk_count), 0)::int as chunks, extract(epoch from max(indexed_at) - min(created_at))::float8 as span_s, count(*)::int as docs
         from kb.documents where knowledge_base_id = $1`,
      [kbId],
    );
    if (rows[0].owed === 0) return rows[0];
    await new Promise((r) => setTimeout(r, 250));
  }
}

export async function run({ platform, database }) {
  const db = new pg.Client({ connectionString: database.url });
  await db.connect();
  try {
    const gatewayUrl = platform.gatewayUrl;
    const tenant = await createTenant(gatewayUrl, adminToken, 'bench-kb');
    const headers = { 'x-api-key': tenant.test_key };
    const kb = async (body) => (await call(gatewayUrl, '/kb/knowledge-bases', { headers, body })).body.id;
    const add = (kbId, i) => call(gatewayUrl, `/kb/knowledge-bases/${kbId}/documents`, { headers, body: { name: `doc-${i}.md`, text: documentText(i) } });
    const health = (await call(gatewayUrl, '/actuator/health/kb-worker')).body;
    const mode = health.components?.vector_search?.details?.mode ?? 'unknown';
    const lines = [];

    // Indexing throughput: 400 documents of ~2 KB, default chunking (1000 / 150).
    const INDEXED = 400;
    const first = await kb({ name: 'indexing' });
    progress(`indexing ${INDEXED} documents of ~${documentText(1).length} bytes`);
    const started = Date.now();
    await inBatches(INDEXED, 16, (i) => add(first, i));
    const accepted = Date.now() - started;
    const indexed = await waitIndexed(db, first);
    lines.push(
      `indexing: ${indexed.docs} documents (~${(documentText(1).length / 1024).toFixed(1)} KB, ${indexed.chunks} chunks) in ${indexed.span_s.toFixed(1)} s = ${Math.round(indexed.docs / indexed.span_s)} documents/s (target ≥ 50), local embedder; accepted in ${(accepted / 1000).toFixed(1)} s; ${indexed.failed} failed`,
    );

    // Query latency over 10,000 chunks: small chunks (250 / 30) so ~1,100 documents make them.
    const big = await kb({ name: 'queries', chunking: { size: 250, overlap: 30 } });
    progress('building a knowledge base of 10,000 chunks');
    let docs = 0;
    for (let chunks = 0; chunks < 10_000;) {
      await inBatches(200, 16, (i) => add(big, 10_000 + docs + i));
      docs += 200;
      chunks = (await waitIndexed(db, big)).chunks;
    }
    const built = await waitIndexed(db, big);
    progress(`${built.chunks} chunks in ${built.docs} documents; measuring queries`);
    const measure = async (base, count) => {
      const times = [];
      for (let q = 0; q < count; q++) {
        const query = text(50_000 + q, 1)[0]
          .split(' ')
          .slice(0, 7)
          .join(' ');
        const t = performance.now();
        const res = await call(base, `/kb/knowledge-bases/${big}/query`, { headers, body: { query, top_k: 5 } });
        times.push(performance.now() - t);
        if (res.status !== 200) throw new Error(`query answered ${res.status}: ${res.text}`);
      }
      return times.sort((a, b) => a - b);
    };
    await measure(gatewayUrl, 20); // warm-up: loads the vectors once
    const viaGateway = await measure(gatewayUrl, 300);
    const direct = await measure(platform.serviceUrls['kb-worker'], 300);
    const fmt = (t) => `p50 ${percentile(t, 50).toFixed(1)} ms, p99 ${percentile(t, 99).toFixed(1)} ms`;
    lines.push(
      `query (hybrid, top 5) over ${built.chunks} chunks, vector mode ${mode}, one client: through the gateway ${fmt(viaGateway)}; at the service ${fmt(direct)} (target p99 < 50 ms)`,
    );
    if (mode !== 'pgvector') lines.push('pgvector mode: not measured, this PostgreSQL has no pgvector extension (the exact mode above is the fallback)');
    return lines;
  } finally {
    await db.end();
  }
}
