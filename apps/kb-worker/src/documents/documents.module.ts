import { Module } from '@nestjs/common';
import { KbConfigModule } from '../config/kb-config.module.js';
import { DocumentsController } from './documents.controller.js';
import { DocumentsService } from './documents.service.js';

/** Documents of a knowledge base: accepted, listed, deleted, re-indexed; queued for indexing. */
@Module({
  imports: [KbConfigModule],
  controllers: [DocumentsController],
  providers: [DocumentsService],
  exports: [DocumentsService],
})
export class DocumentsModule {}
