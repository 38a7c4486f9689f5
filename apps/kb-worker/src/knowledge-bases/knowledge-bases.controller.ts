import { Body, Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScopes, type Principal } from '@platform/auth';
import type { Page } from '@platform/common';
import { ApiPageResponse, ApiTag } from '@platform/service';
import type { KnowledgeBaseResponse } from './knowledge-base.record.js';
import { KnowledgeBasesService } from './knowledge-bases.service.js';
import { CreateKnowledgeBaseRequestDto, ListKnowledgeBasesQueryDto, UpdateKnowledgeBaseRequestDto } from './dto/knowledge-base.request.dto.js';
import { KNOWLEDGE_BASE_EXAMPLE, KnowledgeBaseResponseDto } from './dto/knowledge-base.response.dto.js';

export const KNOWLEDGE_BASES_TAG =
  'Knowledge bases: documents (text, Markdown, HTML, PDF) indexed into chunks with vectors and full text, queried by hybrid search, optionally answered with citations.';

/** Knowledge bases: collections of indexed documents to query. */
@ApiTag('knowledge-bases', KNOWLEDGE_BASES_TAG)
@Controller('kb/knowledge-bases')
export class KnowledgeBasesController {
  constructor(private readonly kbs: KnowledgeBasesService) {}

  @Post()
  @RequireScopes('kb:write')
  @ApiOperation({
    summary: 'Create knowledge base',
    description: 'A customer key creates a knowledge base of its own; a tenant key a tenant-wide one, which customers can read.',
  })
  @ApiCreatedResponse({ type: KnowledgeBaseResponseDto, example: KNOWLEDGE_BASE_EXAMPLE })
  create(@CurrentPrincipal() p: Principal, @Body() b: CreateKnowledgeBaseRequestDto): Promise<KnowledgeBaseResponse> {
    return this.kbs.create(p, b);
  }

  @Get()
  @RequireScopes('kb:read')
  @ApiOperation({
    summary: 'List knowledge bases',
    description: 'Knowledge bases of the environment (a customer key: its own), with their document counts, cursor-paginated.',
  })
  @ApiPageResponse(KnowledgeBaseResponseDto, { example: { data: [KNOWLEDGE_BASE_EXAMPLE], next_cursor: null } })
  list(@CurrentPrincipal() p: Principal, @Query() q: ListKnowledgeBasesQueryDto): Promise<Page<KnowledgeBaseResponse>> {
    return this.kbs.list(p, q);
  }

  @Get(':id')
  @RequireScopes('kb:read')
  @ApiOperation({ summary: 'Get a knowledge base', description: "One knowledge base. Another tenant's or customer's is 404, like an unknown id." })
  @ApiOkResponse({ type: KnowledgeBaseResponseDto, example: KNOWLEDGE_BASE_EXAMPLE })
  @ApiNotFoundResponse({ description: 'No such knowledge base' })
  get(@CurrentPrincipal() p: Principal, @Param('id', new ParseUUIDPipe()) id: string): Promise<KnowledgeBaseResponse> {
    return this.kbs.get(p, id);
  }

  @Patch(':id')
  @RequireScopes('kb:write')
  @ApiOperation({ summary: 'Change a knowledge base', description: 'The embedding model is fixed; a new chunking applies to documents indexed from then on.' })
  @ApiOkResponse({ type: KnowledgeBaseResponseDto, example: KNOWLEDGE_BASE_EXAMPLE })
  @ApiNotFoundResponse({ description: 'No such knowledge base' })
  update(
    @CurrentPrincipal() p: Principal,
    @Param('id', new ParseUUIDPipe()) id: string,
    @Body() b: UpdateKnowledgeBaseRequestDto,
  ): Promise<KnowledgeBaseResponse> {
    return this.kbs.update(p, id, b);
  }

  @Delete(':id')
  @HttpCode(204)
  @RequireScopes('kb:write')
  @ApiOperation({ summary: 'Delete a knowledge base', description: 'With all its documents and chunks.' })
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiNotFoundResponse({ description: 'No such knowledge base' })
  delete(@CurrentPrincipal() p: Principal, @Param('id', new ParseUUIDPipe()) id: string): Promise<void> {
    return this.kbs.delete(p, id);
  }
}
