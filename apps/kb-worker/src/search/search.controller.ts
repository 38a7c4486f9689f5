import { Body, Controller, HttpCode, Param, ParseUUIDPipe, Post } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScopes, type Principal } from '@platform/auth';
import type { KbQueryResult } from '@platform/messaging';
import { ApiTag } from '@platform/service';
import { KNOWLEDGE_BASES_TAG } from '../knowledge-bases/knowledge-bases.controller.js';
import { SearchService } from './search.service.js';
import { QUERY_EXAMPLE, QueryRequestDto, QueryResponseDto } from './dto/query.request.dto.js';

/** Querying a knowledge base. */
@ApiTag('knowledge-bases', KNOWLEDGE_BASES_TAG)
@Controller('kb/knowledge-bases')
export class SearchController {
  constructor(private readonly search: SearchService) {}

  @Post(':id/query')
  @HttpCode(200)
  @RequireScopes('kb:read')
  @ApiOperation({
    summary: 'Query knowledge base',
    description:
      "Hybrid retrieval: the query is embedded with the knowledge base's model and matched by vector (pgvector HNSW, or exact cosine without pgvector) and by PostgreSQL full text; the two rankings are fused by reciprocal rank (k = 60). With `answer: true` the answer model writes an answer from the chunks and `citations` point at the chunks it used.",
  })
  @ApiOkResponse({ type: QueryResponseDto, example: QUERY_EXAMPLE })
  @ApiNotFoundResponse({ description: 'No such knowledge base' })
  query(@CurrentPrincipal() p: Principal, @Param('id', new ParseUUIDPipe()) id: string, @Body() b: QueryRequestDto): Promise<KbQueryResult> {
    return this.search.query(p, id, {
      query: b.query,
      topK: b.top_k,
      answer: b.answer,
      filter: b.filter ? { documentIds: b.filter.document_ids, contentType: b.filter.content_type, metadata: b.filter.metadata } : undefined,
    });
  }
}
