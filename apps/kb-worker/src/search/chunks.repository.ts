import type { EntityManager } from 'typeorm';

export interface NewChunk {
  id: string;
  ordinal: number;
  heading: string | null;
  text: string;
  start: number;
  end: number;
  embedding: number[];
}

export interface ChunkDetail {
  id: string;
  document_id: string;
  document_name: string;
  ordinal: number;
  heading: string | null;
  text: string;
  start_pos: number;
  end_pos: number;
}

/** Which documents a query may draw from (`filter` of the query); all of the knowledge base when empty. */
export interface DocumentFilter {
  documentIds?: string[];
  contentType?: string;
  metadata?: Record<string, unknown>;
}

/**
 * Chunks of ready documents of their current generation only (`live`, set when the document
 * becomes ready): a document mid-indexing is not half-searchable. Filters on the document's
 * attributes look the document up by primary key only when given.
 */
const live = (filter: boolean) =>
  filter
    ? `c.live and ($2::uuid[] is null or c.document_id = any($2)) and (($3::text is null and $4::jsonb is null) or exists (select 1 from kb.documents d
         where d.tenant_id = c.tenant_id and d.id = c.document_id and ($3::text is null or d.content_type = $3) and ($4::jsonb is null or d.metadata @> $4)))`
    : 'c.live';

const filterParams = (f: DocumentFilter) => [f.documentIds ?? null, f.contentType ?? null, f.metadata ? JSON.stringify(f.metadata) : null];

export function toBytes(vector: number[]): Buffer {
  return Buffer.from(Float32Array.from(vector).buffer);
}

/** pgvector's text form of a vector: `[0.1,0.2,…]`. */
export function toVectorLiteral(vector: number[]): string {
  return `[${vector.join(',')}]`;
}

/** Every query on kb.chunks; managers come from TenantDb (RLS). */
export const chunksRepository = {
  async ordinals(m: EntityManager, documentId: string, generation: number): Promise<Set<number>> {
    const rows = await m.query<{ ordinal: number }[]>(`select ordinal from kb.chunks where document_id = $1 and generation = $2`, [documentId, generation]);
    return new Set(rows.map((r) => r.ordinal));
  },

  /** Stores chunks; one already stored (a resumed indexing) is skipped by the unique key, never doubled. */
  async insertMany(
    m: EntityManager,
    owner: { tenantId: string; environmentId: string; scopeId: string | null; knowledgeBaseId: string; documentId: string; generation: number },
    chunks: NewChunk[],
    withVector: boolean,
  ): Promise<void> {
    const col = <T>(f: (c: NewChunk) => T) => chunks.map(f);
    await m.query(
      `insert into kb.chunks (tenant_id, environment_id, scope_id, knowledge_base_id, document_id, generation, id, ordinal, heading, text, start_pos, end_pos, embedding${withVector ? ', embedding_vec' : ''})
       select $1, $2, $3, $4, $5, $6, r.id, r.ordinal, r.heading, r.text, r.start_pos, r.end_pos, r.embedding${withVector ? ', r.vec::public.vector' : ''}
         from unnest($7::uuid[], $8::int[], $9::text[], $10::text[], $11::int[], $12::int[], $13::bytea[], $14::text[]) as r(id, ordinal, heading, text, start_pos, end_pos, embedding, vec)
       on conflict (tenant_id, document_id, generation, ordinal) do nothing`,
      [
        owner.tenantId,
        owner.environmentId,
        owner.scopeId,
        owner.knowledgeBaseId,
        owner.documentId,
        owner.generation,
        col((c) => c.id),
        col((c) => c.ordinal),
        col((c) => c.heading),
        col((c) => c.text),
        col((c) => c.start),
        col((c) => c.end),
        col((c) => toBytes(c.embedding)),
        col((c) => (withVector ? toVectorLiteral(c.embedding) : null)),
      ],
    );
  },

  async count(m: EntityManager, documentId: string, generation: number): Promise<number> {
    const rows = await m.query<{ n: number }[]>(`select count(*)::int as n from kb.chunks where document_id = $1 and generation = $2`, [
      documentId,
      generation,
    ]);
    return rows[0]?.n ?? 0;
  },

  /**
   * The knowledge base's version (changes whenever its searchable chunks change: the search
   * snapshot's cache key) and the query's lexemes (English stemming, stopwords out), in one round trip.
   */
  async probe(m: EntityManager, kbId: string, query: string): Promise<{ version: string; chunks: number; lexemes: string[] }> {
    const rows = await m.query<{ v: string; chunks: number; lexemes: string[] }[]>(
      `select r.n::text || '/' || r.chunks::text || '/' || coalesce(r.last::text, '') || '/' || r.generation::text as v, r.chunks::int as chunks,
              tsvector_to_array(to_tsvector('english', $2)) as lexemes
         from (select count(*) as n, coalesce(sum(chunk_count), 0) as chunks, max(indexed_at) as last, coalesce(max(generation), 0) as generation
                 from kb.documents where knowledge_base_id = $1 and status = 'ready') r`,
      [kbId, query],
    );
    return { version: rows[0]?.v ?? '', chunks: rows[0]?.chunks ?? 0, lexemes: rows[0]?.lexemes ?? [] };
  },

  /**
   * Every searchable chunk with its vector bytes (left out when they are `skipVectorBytes` long:
   * pgvector serves those) and, with `lexemes`, its tsvector's lexemes with their position counts.
   */
  async snapshot(
    m: EntityManager,
    kbId: string,
    skipVectorBytes: number | null,
    lexemes: boolean,
  ): Promise<{ id: string; document_id: string; embedding: Buffer | null; lexemes: string[] | null; counts: number[] | null }[]> {
    const lexical = lexemes
      ? 'cross join lateral (select array_agg(u.lexeme) as lexemes, array_agg(coalesce(cardinality(u.positions), 0)) as counts from unnest(c.tsv) u) l'
      : 'cross join (select null::text[] as lexemes, null::int[] as counts) l';
    return m.query(
      `select c.id, c.document_id, case when $2::int is null or octet_length(c.embedding) <> $2 then c.embedding end as embedding, l.lexemes, l.counts
         from kb.chunks c ${lexical}
        where c.knowledge_base_id = $1 and ${live(false)}`,
      [kbId, skipVectorBytes],
    );
  },

  async documentIds(m: EntityManager, kbId: string, f: DocumentFilter): Promise<Set<string>> {
    const rows = await m.query<{ id: string }[]>(
      `select d.id from kb.documents d where d.knowledge_base_id = $1 and d.status = 'ready' and ($2::uuid[] is null or d.id = any($2)) and ($3::text is null or d.content_type = $3) and ($4::jsonb is null or d.metadata @> $4)`,
      [kbId, ...filterParams(f)],
    );
    return new Set(rows.map((r) => r.id));
  },

  /**
   * Full-text candidates, best first, for a knowledge base too large for the search cache (the
   * cached ones are ranked the same way in process: lexical-index.ts). Every term of the query (English stemming, stopwords out)
   * counts with its inverse document frequency in this knowledge base, and a chunk scores the sum
   * over the terms it contains: a term most chunks share (a product name in every page) weighs
   * little, a rare one decides. ts_rank breaks ties. Any term matches (OR): a question rarely
   * has all its words in one chunk.
   */
  async fulltext(m: EntityManager, kbId: string, query: string, f: DocumentFilter, limit: number): Promise<string[]> {
    const rows = await m.query<{ id: string }[]>(
      // Materialized: inlined, the per-term counts would be evaluated again for every chunk.
      // Document frequencies count every chunk of the knowledge base (ready or not): a close,
      // cheap estimate read from the GIN index.
      `with lexemes as materialized (select distinct lex from unnest(tsvector_to_array(to_tsvector('english', $5))) as lex),
            terms as materialized (select plainto_tsquery('simple', lex) as q from lexemes where numnode(plainto_tsquery('simple', lex)) > 0),
            total as materialized (select count(*)::float8 as n from kb.chunks where knowledge_base_id = $1),
            weighted as materialized (
              select t.q, ln((total.n + 1) / (df.n + 0.5)) as idf
                from terms t cross join total
                cross join lateral (select count(*)::float8 as n from kb.chunks c where c.knowledge_base_id = $1 and c.tsv @@ t.q) df
               where df.n > 0),
            anyterm as materialized (select string_agg(q::text, ' | ')::tsquery as q from weighted)
       select c.id from kb.chunks c cross join anyterm a
        where c.knowledge_base_id = $1 and a.q is not null and c.tsv @@ a.q and ${live(true)}
        order by (select sum(w.idf) from weighted w where c.tsv @@ w.q) desc, ts_rank(c.tsv, a.q) desc, c.id limit $6`,
      [kbId, ...filterParams(f), query, limit],
    );
    return rows.map((r) => r.id);
  },

  /** Nearest chunks by cosine distance through the HNSW index (pgvector mode). */
  async nearest(m: EntityManager, kbId: string, vector: number[], f: DocumentFilter, limit: number): Promise<string[]> {
    const rows = await m.query<{ id: string }[]>(
      `select c.id from kb.chunks c
        where c.knowledge_base_id = $1 and c.embedding_vec is not null and ${live(true)}
        order by c.embedding_vec operator(public.<=>) $5::public.vector limit $6`,
      [kbId, ...filterParams(f), toVectorLiteral(vector), limit],
    );
    return rows.map((r) => r.id);
  },

  async details(m: EntityManager, ids: string[]): Promise<ChunkDetail[]> {
    return m.query<ChunkDetail[]>(
      `select c.id, c.document_id, d.name as document_name, c.ordinal, c.heading, c.text, c.start_pos, c.end_pos
         from kb.chunks c join kb.documents d on d.tenant_id = c.tenant_id and d.id = c.document_id where c.id = any($1::uuid[])`,
      [ids],
    );
  },
};
