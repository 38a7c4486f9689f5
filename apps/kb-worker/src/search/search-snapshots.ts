import { Inject, Injectable } from '@nestjs/common';
import type { TenantContext } from '@platform/db';
import type { EntityManager } from 'typeorm';
import { KB_CONFIG, type KbConfig } from '../config/kb.config.js';
import { chunksRepository } from './chunks.repository.js';
import { LexicalIndex } from './lexical-index.js';

/** What the in-process searches know of a knowledge base's searchable chunks at one version. */
export interface SearchSnapshot {
  version: string;
  ids: string[];
  documents: string[];
  /** 0 when the vectors are not kept (pgvector mode, 384-dimension models: the HNSW index serves them). */
  dims: number;
  vectors: Float32Array;
  norms: Float32Array;
  lexical: LexicalIndex;
}

/**
 * The searchable chunks of each knowledge base, per caller scope, loaded once and kept while the
 * knowledge base's version (ready documents) is unchanged: their vectors for the exact search and
 * an inverted index of their lexemes for the full-text ranking. Memory is bounded by
 * KB_VECTOR_CACHE_CHUNKS, least recently used first out; a knowledge base larger than that is not
 * kept (its queries fall back to the SQL full-text ranking and a vector load each).
 */
@Injectable()
export class SearchSnapshots {
  private readonly cache = new Map<string, SearchSnapshot>();
  private cachedChunks = 0;

  constructor(@Inject(KB_CONFIG) private readonly config: KbConfig) {}

  /**
   * The snapshot at `version`, loaded through `m` (the caller's transaction, so RLS applies) when
   * missing or stale. `skipVectorBytes`: vectors of this many bytes are left out (pgvector mode).
   * A knowledge base of more than KB_VECTOR_CACHE_CHUNKS `chunks` is loaded (vectors only) and not kept.
   */
  async get(
    ctx: TenantContext,
    m: EntityManager,
    kbId: string,
    probe: { version: string; chunks: number },
    skipVectorBytes: number | null,
  ): Promise<SearchSnapshot & { cached: boolean }> {
    const { version } = probe;
    const cacheable = this.fits(probe.chunks);
    const key = `${ctx.tenantId}/${ctx.environmentId}/${ctx.scopeId ?? ''}/${kbId}`;
    const hit = this.cache.get(key);
    if (hit && hit.version === version) {
      this.cache.delete(key);
      this.cache.set(key, hit);
      return { ...hit, cached: true };
    }
    const rows = await chunksRepository.snapshot(m, kbId, skipVectorBytes, cacheable);
    const first = rows.find((r) => r.embedding);
    const dims = first?.embedding ? first.embedding.length / 4 : 0;
    const vectors = new Float32Array(dims ? rows.length * dims : 0);
    const norms = new Float32Array(rows.length);
    if (dims)
      rows.forEach((row, i) => {
        if (row.embedding?.length !== dims * 4) return; // no vector of this model's size: never a vector hit (norm 0)
        let norm = 0;
        for (let j = 0; j < dims; j++) {
          const v = row.embedding.readFloatLE(j * 4);
          vectors[i * dims + j] = v;
          norm += v * v;
        }
        norms[i] = Math.sqrt(norm);
      });
    const snapshot: SearchSnapshot = {
      version,
      ids: rows.map((r) => r.id),
      documents: rows.map((r) => r.document_id),
      dims,
      vectors,
      norms,
      lexical: LexicalIndex.build(rows),
    };
    const cached = cacheable && this.store(key, snapshot);
    return { ...snapshot, cached };
  }

  /** Whether a knowledge base of this many chunks may be kept. */
  fits(chunks: number): boolean {
    return chunks <= this.config.KB_VECTOR_CACHE_CHUNKS;
  }

  private store(key: string, snapshot: SearchSnapshot): boolean {
    const old = this.cache.get(key);
    if (old) {
      this.cachedChunks -= old.ids.length;
      this.cache.delete(key);
    }
    if (snapshot.ids.length > this.config.KB_VECTOR_CACHE_CHUNKS) return false;
    for (const [k, s] of this.cache) {
      if (this.cachedChunks + snapshot.ids.length <= this.config.KB_VECTOR_CACHE_CHUNKS) break;
      this.cache.delete(k);
      this.cachedChunks -= s.ids.length;
    }
    this.cache.set(key, snapshot);
    this.cachedChunks += snapshot.ids.length;
    return true;
  }
}
