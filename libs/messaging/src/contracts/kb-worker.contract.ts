import { IsBoolean, IsInt, IsObject, IsOptional, IsString, IsUUID, Max, MaxLength, Min, MinLength } from 'class-validator';
import type { WorkQueueSpec } from '../jetstream/work-queue.js';

/** Subjects the kb-worker service answers or emits. */
export const KbWorkerSubjects = {
  /** Request: query one knowledge base (the `kb.query` step, agents' KB tools), like `POST .../query`. */
  query: 'kb.knowledge-bases.query',
  /** Work item (JetStream): index one stored document. */
  index: 'kb.documents.index',
} as const;

export class KbQueryRequest {
  @IsUUID()
  knowledgeBaseId!: string;

  @IsString()
  @MinLength(1)
  @MaxLength(10_000)
  query!: string;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(50)
  topK?: number;

  /** `{ document_id?, document_ids?, content_type?, metadata?: { key: value } }`; checked by the worker. */
  @IsOptional()
  @IsObject()
  filter?: Record<string, unknown>;

  @IsOptional()
  @IsBoolean()
  answer?: boolean;
}

export interface KbChunkHit {
  document_id: string;
  chunk_id: string;
  text: string;
  score: number;
  position: { index: number; start: number; end: number; heading: string | null };
  document_name: string;
}

export interface KbCitation {
  /** The `[n]` marker in the answer: 1-based index into `chunks`. */
  marker: number;
  document_id: string;
  chunk_id: string;
}

export interface KbQueryResult {
  chunks: KbChunkHit[];
  answer?: string;
  citations?: KbCitation[];
  model?: string;
}

/** A document to index: its row holds the source; the stream's message id is the document id and its generation. */
export class KbIndexItem {
  @IsUUID()
  documentId!: string;

  @IsInt()
  @Min(0)
  generation!: number;
}

/**
 * Indexing of accepted documents. A worker that dies mid-document leaves the item unacked; it
 * comes back after `ackWaitMs` and indexing resumes from the chunks already stored.
 */
export const KB_INDEX_QUEUE: WorkQueueSpec = {
  stream: 'KB_INDEXING',
  subjects: [KbWorkerSubjects.index],
  consumer: 'kb-indexers',
  maxDeliver: 20,
  ackWaitMs: 30_000,
  deadLetterSubject: 'kb.documents.dead',
  payload: KbIndexItem,
};

export interface KbWorkerRequests {
  [KbWorkerSubjects.query]: { request: KbQueryRequest; response: KbQueryResult };
}

/** None. */
export type KbWorkerEvents = Record<never, never>;
