import { Module } from '@nestjs/common';
import { KnowledgeBasesController } from './knowledge-bases.controller.js';
import { KnowledgeBasesService } from './knowledge-bases.service.js';

/** Knowledge bases; documents, indexing and search reach them through index.ts. */
@Module({
  controllers: [KnowledgeBasesController],
  providers: [KnowledgeBasesService],
})
export class KnowledgeBasesModule {}
