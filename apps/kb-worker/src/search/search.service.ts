import { Injectable } from '@nestjs/common';
import { TenantDb, type TenantContext } from '@platform/db';
import { AiRuntimeSubjects, Bus, messageContext, type EmbeddingsResult, type KbChunkHit, type KbQueryResult } from '@platform/messaging';
import { KnowledgeBaseErrors, visibleKnowledgeBase } from '../knowledge-bases/index.js';
import { ANSWER_SYSTEM, answerPrompt, citationsOf } from './answer.js';
import { chunksRepository, type DocumentFilter } from './chunks.repository.js';
import { nearestExact } from './exact-index.js';
import { reciprocalRankFusion } from './rrf.js';
import { SearchSnapshots, type SearchSnapshot } from './search-snapshots.js';
import { PGVECTOR_DIMENSIONS, VectorModeProvider } from './vector-mode.js';

export interface QueryInput {
  query: string;
  topK?: number;
  filter?: DocumentFilter;
  answer?: boolean;
}

/**
 * Hybrid retrieval (vector + full text, fused by reciprocal rank) and answers with citations.
 * One transaction reads the knowledge base, its version and the query's lexemes while the AI
 * runtime embeds the query; the full-text ranking and (without pgvector) the vector scan then run
 * in process over the cached snapshot of the knowledge base, and a second transaction loads the
 * chosen chunks.
 */
@Injectable()
export class SearchService {
  constructor(
    private readonly db: TenantDb,
    private readonly bus: Bus,
    private readonly snapshots: SearchSnapshots,
    private readonly vectorMode: VectorModeProvider,
  ) {}

  async query(ctx: TenantContext, kbId: string, input: QueryInput): Promise<KbQueryResult> {
    const topK = input.topK ?? 5;
    const pool = Math.max(50, topK * 4);
    const filter = input.filter ?? {};
    const filtered = Boolean(filter.documentIds || filter.contentType || filter.metadata);
    const pgvector = this.vectorMode.mode === 'pgvector';
    let embedding: Promise<EmbeddingsResult> | undefined;
    const found = await this.db.run(ctx, async (m) => {
      const kb = await visibleKnowledgeBase(m, kbId);
      if (!kb) throw KnowledgeBaseErrors.notFound();
      embedding = this.bus.request(AiRuntimeSubjects.embeddings, { model: kb.embedding_model, input: [input.query] }, messageContext(ctx), {
        timeoutMs: 30_000,
      });
      embedding.catch(() => undefined); // awaited below; a failure of the reads must not leave it unhandled
      const probe = await chunksRepository.probe(m, kbId, input.query);
      const allowedDocuments = filtered ? await chunksRepository.documentIds(m, kbId, filter) : null;
      // A knowledge base too large for the cache is ranked by SQL, and with pgvector not loaded at all.
      const fits = this.snapshots.fits(probe.chunks);
      const snapshot = fits || !pgvector ? await this.snapshots.get(ctx, m, kbId, probe, pgvector ? PGVECTOR_DIMENSIONS * 4 : null) : null;
      const allowed = allowedOf(snapshot, allowedDocuments);
      const textHits =
        snapshot?.cached === true
          ? snapshot.lexical.rank(probe.lexemes, snapshot.ids.length, snapshot.ids, allowed, pool).map((i) => snapshot.ids[i])
          : await chunksRepository.fulltext(m, kbId, input.query, filter, pool);
      return { kb, probe, snapshot, allowedDocuments, textHits };
    });
    const { kb, textHits } = found;
    const vector = (await embedding!).embeddings[0] ?? [];
    let vectorHits: string[];
    if (pgvector && vector.length === PGVECTOR_DIMENSIONS) {
      vectorHits = await this.db.run(ctx, (m) => chunksRepository.nearest(m, kbId, vector, filter, pool));
    } else {
      const snapshot = found.snapshot ?? (await this.db.run(ctx, (m) => this.snapshots.get(ctx, m, kbId, found.probe, null)));
      vectorHits = nearestExact(snapshot, vector, allowedOf(snapshot, found.allowedDocuments), pool);
    }
    const fused = reciprocalRankFusion([vectorHits, textHits], topK);
    const details = fused.length
      ? await this.db.run(ctx, (m) =>
          chunksRepository.details(
            m,
            fused.map((f) => f.id),
          ),
        )
      : [];
    const byId = new Map(details.map((d) => [d.id, d]));
    const chunks: KbChunkHit[] = fused.flatMap(({ id, score }) => {
      const d = byId.get(id);
      if (!d) return [];
      return [
        {
          document_id: d.document_id,
          chunk_id: d.id,
          document_name: d.document_name,
          text: d.text,
          score: Math.round(score * 1e6) / 1e6,
          position: { index: d.ordinal, start: d.start_pos, end: d.end_pos, heading: d.heading },
        },
      ];
    });
    if (!input.answer) return { chunks };
    if (!chunks.length) return { chunks, answer: 'No document of the knowledge base matches the question.', citations: [], model: kb.answer_model };
    const generated = await this.bus.request(
      AiRuntimeSubjects.generate,
      { model: kb.answer_model, system: ANSWER_SYSTEM, prompt: answerPrompt(input.query, chunks), temperature: 0 },
      messageContext(ctx),
      { timeoutMs: 120_000 },
    );
    return { chunks, answer: generated.text, citations: citationsOf(generated.text, chunks), model: generated.model };
  }
}

/** A query's document filter as a test on snapshot positions; null when every chunk may answer. */
function allowedOf(snapshot: SearchSnapshot | null, documents: Set<string> | null): ((i: number) => boolean) | null {
  if (!snapshot || !documents) return null;
  return (i) => documents.has(snapshot.documents[i]);
}
