import { Inject, Injectable } from '@nestjs/common';
import { TenantDb, type TenantContext } from '@platform/db';
import { KB_CONFIG, type KbConfig } from '../config/kb.config.js';
import { chunksRepository } from './chunks.repository.js';

interface Matrix {
  version: string;
  ids: string[];
  documents: string[];
  dims: number;
  vectors: Float32Array;
  norms: Float32Array;
}

/**
 * The exact vector search (the fallback without pgvector): every vector of the knowledge base is
 * compared with the query (cosine similarity), so results are exact, not approximate. The vectors
 * are loaded once per knowledge base and caller scope and kept while the knowledge base's
 * searchable chunks are unchanged (a version read with each query); memory is bounded by
 * KB_VECTOR_CACHE_CHUNKS, least recently used first out.
 */
@Injectable()
export class ExactVectorIndex {
  private readonly cache = new Map<string, Matrix>();
  private cachedChunks = 0;

  constructor(
    private readonly db: TenantDb,
    @Inject(KB_CONFIG) private readonly config: KbConfig,
  ) {}

  async nearest(ctx: TenantContext, kbId: string, query: number[], allowed: Set<string> | null, limit: number): Promise<string[]> {
    const matrix = await this.matrix(ctx, kbId);
    if (!matrix.ids.length || query.length !== matrix.dims) return [];
    let qn = 0;
    for (const v of query) qn += v * v;
    qn = Math.sqrt(qn);
    if (qn === 0) return [];
    const q = Float32Array.from(query);
    const scored: { i: number; s: number }[] = [];
    const { dims, vectors, norms } = matrix;
    for (let i = 0; i < matrix.ids.length; i++) {
      if (allowed && !allowed.has(matrix.documents[i])) continue;
      if (norms[i] === 0) continue;
      let dot = 0;
      const base = i * dims;
      for (let j = 0; j < dims; j++) dot += q[j] * vectors[base + j];
      scored.push({ i, s: dot / (norms[i] * qn) });
    }
    scored.sort((a, b) => b.s - a.s);
    return scored.slice(0, limit).map(({ i }) => matrix.ids[i]);
  }

  private async matrix(ctx: TenantContext, kbId: string): Promise<Matrix> {
    const key = `${ctx.tenantId}/${ctx.environmentId}/${ctx.scopeId ?? ''}/${kbId}`;
    return this.db.run(ctx, async (m) => {
      const version = await chunksRepository.version(m, kbId);
      const hit = this.cache.get(key);
      if (hit && hit.version === version) {
        this.cache.delete(key);
        this.cache.set(key, hit);
        return hit;
      }
      const rows = await chunksRepository.vectors(m, kbId);
      const dims = rows.length ? rows[0].embedding.length / 4 : 0;
      const vectors = new Float32Array(rows.length * dims);
      const norms = new Float32Array(rows.length);
      rows.forEach((row, i) => {
        let norm = 0;
        for (let j = 0; j < dims; j++) {
          const v = row.embedding.readFloatLE(j * 4);
          vectors[i * dims + j] = v;
          norm += v * v;
        }
        norms[i] = Math.sqrt(norm);
      });
      const matrix: Matrix = { version, ids: rows.map((r) => r.id), documents: rows.map((r) => r.document_id), dims, vectors, norms };
      this.store(key, matrix);
      return matrix;
    });
  }

  private store(key: string, matrix: Matrix): void {
    const old = this.cache.get(key);
    if (old) {
      this.cachedChunks -= old.ids.length;
      this.cache.delete(key);
    }
    if (matrix.ids.length > this.config.KB_VECTOR_CACHE_CHUNKS) return;
    for (const [k, m] of this.cache) {
      if (this.cachedChunks + matrix.ids.length <= this.config.KB_VECTOR_CACHE_CHUNKS) break;
      this.cache.delete(k);
      this.cachedChunks -= m.ids.length;
    }
    this.cache.set(key, matrix);
    this.cachedChunks += matrix.ids.length;
  }
}
