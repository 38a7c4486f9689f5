import { Module } from '@nestjs/common';
import { KbConfigModule } from '../config/kb-config.module.js';
import { DocumentsModule } from '../documents/documents.module.js';
import { SearchModule } from '../search/search.module.js';
import { DocumentSourceReader } from './document-source.js';
import { IndexReconcilerJob } from './index-reconciler.job.js';
import { IndexWorker } from './index.worker.js';

/** Indexing: the JetStream worker that turns documents into chunks, and the reconciler of lost wake-ups. */
@Module({
  imports: [KbConfigModule, DocumentsModule, SearchModule],
  providers: [DocumentSourceReader, IndexWorker, IndexReconcilerJob],
})
export class IndexingModule {}
