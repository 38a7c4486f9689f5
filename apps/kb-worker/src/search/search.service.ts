import { Injectable } from '@nestjs/common';
import { TenantDb, type TenantContext } from '@platform/db';
import { AiRuntimeSubjects, Bus, messageContext, type KbChunkHit, type KbQueryResult } from '@platform/messaging';
import { KnowledgeBasesService } from '../knowledge-bases/knowledge-bases.service.js';
import { ANSWER_SYSTEM, answerPrompt, citationsOf } from './answer.js';
import { chunksRepository, type DocumentFilter } from './chunks.repository.js';
import { ExactVectorIndex } from './exact-index.js';
import { reciprocalRankFusion } from './rrf.js';
import { PGVECTOR_DIMENSIONS, VectorModeProvider } from './vector-mode.js';

export interface QueryInput {
  query: string;
  topK?: number;
  filter?: DocumentFilter;
  answer?: boolean;
}

/** Hybrid retrieval (vector + full text, fused by reciprocal rank) and answers with citations. */
@Injectable()
export class SearchService {
  constructor(
    private readonly db: TenantDb,
    private readonly bus: Bus,
    private readonly kbs: KnowledgeBasesService,
    private readonly exact: ExactVectorIndex,
    private readonly vectorMode: VectorModeProvider,
  ) {}

  async query(ctx: TenantContext, kbId: string, input: QueryInput): Promise<KbQueryResult> {
    const kb = await this.kbs.row(ctx, kbId);
    const topK = input.topK ?? 5;
    const pool = Math.max(50, topK * 4);
    const filter = input.filter ?? {};
    const filtered = Boolean(filter.documentIds || filter.contentType || filter.metadata);
    const [embedding, textHits] = await Promise.all([
      this.bus.request(AiRuntimeSubjects.embeddings, { model: kb.embedding_model, input: [input.query] }, messageContext(ctx), { timeoutMs: 30_000 }),
      this.db.run(ctx, (m) => chunksRepository.fulltext(m, kbId, input.query, filter, pool)),
    ]);
    const vector = embedding.embeddings[0] ?? [];
    let vectorHits: string[];
    if (this.vectorMode.mode === 'pgvector' && vector.length === PGVECTOR_DIMENSIONS) {
      vectorHits = await this.db.run(ctx, (m) => chunksRepository.nearest(m, kbId, vector, filter, pool));
    } else {
      const allowed = filtered ? await this.db.run(ctx, (m) => chunksRepository.documentIds(m, kbId, filter)) : null;
      vectorHits = await this.exact.nearest(ctx, kbId, vector, allowed, pool);
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
