import { Module } from '@nestjs/common';
import { KB_CONFIG, loadKbConfig } from '../config/kb.config.js';
import { DocumentsController } from '../documents/documents.controller.js';
import { DocumentsService } from '../documents/documents.service.js';
import { DocumentSourceReader } from '../indexing/document-source.js';
import { IndexReconcilerJob } from '../indexing/index-reconciler.job.js';
import { IndexWorker } from '../indexing/index.worker.js';
import { SearchController } from '../search/search.controller.js';
import { SearchHandler } from '../search/search.handler.js';
import { SearchSnapshots } from '../search/search-snapshots.js';
import { SearchService } from '../search/search.service.js';
import { VectorModeProvider } from '../search/vector-mode.js';
import { KnowledgeBasesController } from './knowledge-bases.controller.js';
import { KnowledgeBasesService } from './knowledge-bases.service.js';

/** Knowledge bases, their documents and indexing, and retrieval. */
@Module({
  controllers: [KnowledgeBasesController, DocumentsController, SearchController, SearchHandler],
  providers: [
    { provide: KB_CONFIG, useFactory: () => loadKbConfig() },
    KnowledgeBasesService,
    DocumentsService,
    DocumentSourceReader,
    VectorModeProvider,
    SearchSnapshots,
    SearchService,
    IndexWorker,
    IndexReconcilerJob,
  ],
})
export class KnowledgeBasesModule {}
