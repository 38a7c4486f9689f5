import type { SearchSnapshot } from './search-snapshots.js';
import { TopK } from './top-k.js';

/**
 * The exact vector search (the fallback without pgvector): every vector of the knowledge base's
 * snapshot is compared with the query (cosine similarity), so results are exact, not approximate.
 * Only the best `limit` are kept while scanning (a bounded heap, no sort of every chunk); equal
 * scores keep the snapshot's order.
 */
export function nearestExact(snapshot: SearchSnapshot, query: number[], allowed: ((i: number) => boolean) | null, limit: number): string[] {
  const { dims, vectors, norms, ids } = snapshot;
  if (!ids.length || !dims || query.length !== dims || limit <= 0) return [];
  let qn = 0;
  for (const v of query) qn += v * v;
  qn = Math.sqrt(qn);
  if (qn === 0) return [];
  const q = Float32Array.from(query);
  const top = new TopK<{ i: number; s: number }>(limit, (a, b) => (a.s !== b.s ? a.s > b.s : a.i < b.i));
  for (let i = 0; i < ids.length; i++) {
    if (norms[i] === 0) continue;
    if (allowed && !allowed(i)) continue;
    let dot = 0;
    const base = i * dims;
    for (let j = 0; j < dims; j++) dot += q[j] * vectors[base + j];
    const s = dot / (norms[i] * qn);
    const worst = top.threshold;
    if (worst && (s < worst.s || (s === worst.s && i > worst.i))) continue;
    top.push({ i, s });
  }
  return top.sorted().map(({ i }) => ids[i]);
}
