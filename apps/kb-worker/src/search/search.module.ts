import { Module } from '@nestjs/common';
import { KbConfigModule } from '../config/kb-config.module.js';
import { SearchController } from './search.controller.js';
import { SearchHandler } from './search.handler.js';
import { SearchSnapshots } from './search-snapshots.js';
import { SearchService } from './search.service.js';
import { VectorModeProvider } from './vector-mode.js';

/** Retrieval and answers over a knowledge base's chunks (HTTP and NATS); the vector mode the indexer also writes for. */
@Module({
  imports: [KbConfigModule],
  controllers: [SearchController, SearchHandler],
  providers: [VectorModeProvider, SearchSnapshots, SearchService],
  exports: [VectorModeProvider],
})
export class SearchModule {}
