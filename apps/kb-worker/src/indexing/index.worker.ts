import { Inject, Injectable } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import { newId } from '@platform/common';
import { TenantDb, type TenantContext } from '@platform/db';
import {
  AiRuntimeSubjects,
  Bus,
  KB_INDEX_QUEUE,
  NATS_CONNECTION,
  QueueConsumer,
  hasTenant,
  messageContext,
  type KbIndexItem,
  type WorkItem,
  type WorkResult,
} from '@platform/messaging';
import { KB_CONFIG, type KbConfig } from '../config/kb.config.js';
import type { DocumentRow } from '../documents/document.record.js';
import { documentIndexing } from '../documents/index.js';
import { visibleKnowledgeBase } from '../knowledge-bases/index.js';
import { PGVECTOR_DIMENSIONS, VectorModeProvider, chunkStore } from '../search/index.js';
import { chunkText, type Chunk } from './chunker.js';
import { DocumentSourceReader, SourceUnavailable } from './document-source.js';
import { CONTENT_TYPES, UnreadableDocument, detectFormat, extractText } from '../documents/extract.js';

const EMBED_BATCH = 64;

/** The queue with this replica's lease: a killed indexer's document comes back after KB_INDEX_LEASE_MS. */
const queue = (config: KbConfig) => ({ ...KB_INDEX_QUEUE, ackWaitMs: config.KB_INDEX_LEASE_MS });

/**
 * Indexes documents from the JetStream work queue. Each item claims its document under a lease
 * (a duplicate or stale item claims nothing), reads the bytes (stored with the document, or fetched
 * once and then stored, so every attempt reads the same), extracts and chunks the text
 * deterministically, skips the chunks an earlier attempt already stored, embeds the rest in
 * batches and stores each batch (unique per document, generation and ordinal: never twice), then
 * marks the document ready. An indexer killed midway leaves its item unacked and its lease
 * running out: the item comes back and the next attempt resumes at the first missing chunk.
 */
@Injectable()
export class IndexWorker extends QueueConsumer<KbIndexItem> {
  constructor(
    private readonly db: TenantDb,
    private readonly bus: Bus,
    private readonly sources: DocumentSourceReader,
    private readonly vectorMode: VectorModeProvider,
    @Inject(KB_CONFIG) private readonly config: KbConfig,
    @Inject(NATS_CONNECTION) nc: NatsConnection,
  ) {
    super(nc, queue(config), { concurrency: config.KB_INDEX_CONCURRENCY, failure: 'indexing attempt failed (redelivered)', level: 'warn' });
  }

  protected async handle(item: WorkItem<KbIndexItem>): Promise<WorkResult> {
    if (!hasTenant(item.context)) return { ack: true };
    const ctx: TenantContext = { tenantId: item.context.tenantId, environmentId: item.context.environmentId, scopeId: item.context.scopeId ?? null };
    const { documentId, generation } = item.data;
    const lease = this.config.KB_INDEX_LEASE_MS;
    const doc = await this.db.run(ctx, (m) => documentIndexing.claim(m, documentId, generation, lease));
    if (!doc) return { ack: true };
    const keepAlive = setInterval(
      () => {
        item.working();
        void this.db.run(ctx, (m) => documentIndexing.extendLease(m, documentId, generation, lease)).catch(() => undefined);
      },
      Math.max(500, Math.floor(lease / 3)),
    );
    try {
      const chunkCount = await this.indexDocument(ctx, doc);
      await this.db.run(ctx, (m) => documentIndexing.finish(m, documentId, generation, { status: 'ready', error: null, chunkCount }));
      return { ack: true };
    } catch (error) {
      const permanent = error instanceof SourceUnavailable || error instanceof UnreadableDocument || error instanceof EmptyDocument;
      if (permanent || item.deliveryCount >= (KB_INDEX_QUEUE.maxDeliver ?? 5) - 1) {
        const reason = permanent ? error.message : `indexing failed ${item.deliveryCount} times, last: ${(error as Error).message}`;
        await this.db.run(ctx, (m) => documentIndexing.finish(m, documentId, generation, { status: 'failed', error: reason.slice(0, 1000), chunkCount: 0 }));
        return { ack: true };
      }
      throw error;
    } finally {
      clearInterval(keepAlive);
    }
  }

  private async indexDocument(ctx: TenantContext, doc: DocumentRow & { content: Buffer | null }): Promise<number> {
    const kb = await this.db.run(ctx, (m) => visibleKnowledgeBase(m, doc.knowledge_base_id));
    if (!kb) throw new SourceUnavailable('the knowledge base was deleted');
    let bytes = doc.content;
    let contentType = doc.content_type;
    if (!bytes) {
      const read = await this.sources.read(ctx, doc.source);
      bytes = read.bytes;
      contentType = doc.content_type ?? CONTENT_TYPES[detectFormat(read.contentType, doc.name, bytes)];
      const [stored, type] = [bytes, contentType];
      await this.db.run(ctx, (m) => documentIndexing.storeContent(m, doc.id, stored, type));
    }
    const text = await extractText(detectFormat(contentType, doc.name, bytes), bytes);
    const chunks = chunkText(text, kb.chunk_size, kb.chunk_overlap);
    if (!chunks.length) throw new EmptyDocument('the document has no text to index');
    const done = await this.db.run(ctx, (m) => chunkStore.ordinals(m, doc.id, doc.generation));
    const missing = chunks.filter((c) => !done.has(c.ordinal));
    const owner = {
      tenantId: ctx.tenantId,
      environmentId: ctx.environmentId,
      scopeId: doc.scope_id,
      knowledgeBaseId: kb.id,
      documentId: doc.id,
      generation: doc.generation,
    };
    for (let i = 0; i < missing.length; i += EMBED_BATCH) {
      const batch = missing.slice(i, i + EMBED_BATCH);
      const vectors = await this.embed(ctx, kb.embedding_model, batch);
      const withVector = this.vectorMode.mode === 'pgvector' && vectors[0]?.length === PGVECTOR_DIMENSIONS;
      const rows = batch.map((c, j) => ({
        id: newId(),
        ordinal: c.ordinal,
        heading: c.heading,
        text: c.text,
        start: c.start,
        end: c.end,
        embedding: vectors[j],
      }));
      await this.db.run(ctx, (m) => chunkStore.insertMany(m, owner, rows, withVector), { asyncCommit: true });
    }
    return chunks.length;
  }

  private async embed(ctx: TenantContext, model: string, chunks: Chunk[]): Promise<number[][]> {
    const input = chunks.map((c) => (c.heading && !c.text.startsWith('#') ? `${c.heading}\n${c.text}` : c.text));
    const result = await this.bus.request(AiRuntimeSubjects.embeddings, { model, input }, messageContext(ctx), { timeoutMs: 120_000 });
    if (result.embeddings.length !== chunks.length)
      throw new Error(`the embedding model answered ${result.embeddings.length} vectors for ${chunks.length} chunks`);
    return result.embeddings;
  }
}

class EmptyDocument extends Error {}
