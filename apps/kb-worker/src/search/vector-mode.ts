import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { HealthRegistry } from '@platform/service';
import { KB_CONFIG, type KbConfig } from '../config/kb.config.js';

export type VectorMode = 'pgvector' | 'exact';

/** Only vectors of this size go to the pgvector column (its HNSW index needs one fixed dimension). */
export const PGVECTOR_DIMENSIONS = 384;

/**
 * Which vector search this replica uses, chosen once at start: `pgvector` (HNSW, approximate)
 * when the migration found the extension and added `kb.chunks.embedding_vec`, unless
 * KB_VECTOR_MODE=exact; otherwise `exact` (every vector of the knowledge base compared in
 * process, cached per knowledge base). Reported in /actuator/health as the `vector_search` component.
 */
@Injectable()
export class VectorModeProvider implements OnApplicationBootstrap {
  mode: VectorMode = 'exact';

  constructor(
    private readonly dataSource: DataSource,
    private readonly health: HealthRegistry,
    @Inject(KB_CONFIG) private readonly config: KbConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const rows = await this.dataSource.query<{ present: boolean }[]>(
      `select exists (select 1 from information_schema.columns where table_schema = 'kb' and table_name = 'chunks' and column_name = 'embedding_vec') as present`,
    );
    const available = rows[0]?.present === true;
    this.mode = available && this.config.KB_VECTOR_MODE === 'auto' ? 'pgvector' : 'exact';
    this.health.register('vector_search', () =>
      Promise.resolve({
        mode: this.mode,
        pgvector_available: available,
        description:
          this.mode === 'pgvector'
            ? `pgvector HNSW index for ${PGVECTOR_DIMENSIONS}-dimension models, exact in-process search for others`
            : 'exact cosine similarity over the knowledge base, in process (no pgvector on this server)',
      }),
    );
  }
}
