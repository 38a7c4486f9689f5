import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, Max, Min } from 'class-validator';
import { loadConfig, toBoolean } from '@platform/common';

/** The KB worker's own settings (environment variables). */
export class KbConfig {
  /** `auto` uses pgvector when the migration could install it; `exact` forces the in-process exact search. */
  @IsIn(['auto', 'exact'])
  KB_VECTOR_MODE: 'auto' | 'exact' = 'auto';

  /** Let `{ url }` documents come from private, loopback and link-local addresses (tests, on-premise). */
  @Transform(toBoolean)
  @IsBoolean()
  KB_ALLOW_PRIVATE_NETWORKS: boolean = false;

  /** Documents indexed at once by each replica. */
  @IsInt()
  @Min(1)
  @Max(256)
  KB_INDEX_CONCURRENCY: number = 4;

  /** How long an indexer holds a document before another may take it over (its work item comes back then too). */
  @IsInt()
  @Min(1000)
  @Max(3_600_000)
  KB_INDEX_LEASE_MS: number = 30_000;

  /**
   * How often the reconciler queues a document's indexing again without progress before it fails
   * the document ("indexing made no progress"): an indexing that never completes ends in a
   * recorded failure, not in a loop. Re-indexing starts a new generation and a new count.
   */
  @IsInt()
  @Min(1)
  @Max(1000)
  KB_INDEX_MAX_REQUEUES: number = 10;

  /** Largest document accepted (bytes of the upload, the stored file or the fetched URL). */
  @IsInt()
  @Min(1024)
  @Max(100 * 1024 * 1024)
  KB_MAX_DOCUMENT_BYTES: number = 20 * 1024 * 1024;

  /** Chunks whose search data (vectors in the exact mode, lexemes for the full text) each replica keeps in memory, all knowledge bases together; about 1.5 KB each with 384-dimension vectors. */
  @IsInt()
  @Min(1000)
  @Max(10_000_000)
  KB_VECTOR_CACHE_CHUNKS: number = 200_000;
}

export const KB_CONFIG = Symbol('KB_CONFIG');

export function loadKbConfig(env: Record<string, string | undefined> = process.env): KbConfig {
  return loadConfig(KbConfig, env);
}
