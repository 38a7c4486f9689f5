import { Module } from '@nestjs/common';
import { DocumentsModule } from './documents/documents.module.js';
import { IndexingModule } from './indexing/indexing.module.js';
import { KnowledgeBasesModule } from './knowledge-bases/knowledge-bases.module.js';
import { SearchModule } from './search/search.module.js';

/** The service's features; platform concerns (health, auth, database, NATS) come from bootstrapService. */
@Module({ imports: [KnowledgeBasesModule, DocumentsModule, SearchModule, IndexingModule] })
export class AppModule {}
