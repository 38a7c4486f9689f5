import { Body, Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Post, Query } from '@nestjs/common';
import { ApiAcceptedResponse, ApiNoContentResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScopes, type Principal } from '@platform/auth';
import type { Page } from '@platform/common';
import { ApiPageResponse, ApiTag } from '@platform/service';
import type { DocumentResponse } from './document.record.js';
import { DocumentsService } from './documents.service.js';
import { AddDocumentRequestDto, ListDocumentsQueryDto } from './dto/document.request.dto.js';
import { DOCUMENT_EXAMPLE, DocumentQueuedResponseDto, DocumentResponseDto, QUEUED_EXAMPLE } from './dto/document.response.dto.js';

const uuid = () => new ParseUUIDPipe();

/** Documents of a knowledge base and their indexing status. */
@ApiTag(
  'knowledge-base-documents',
  'Documents of a knowledge base: added as text, an upload (base64), a stored file or a URL; indexed asynchronously (queued → indexing → ready | failed).',
)
@Controller('kb/knowledge-bases/:id/documents')
export class DocumentsController {
  constructor(private readonly documents: DocumentsService) {}

  @Post()
  @HttpCode(202)
  @RequireScopes('kb:write')
  @ApiOperation({
    summary: 'Add document',
    description:
      'Stores the document and queues it for indexing: text is extracted (HTML via html-to-text, PDF via PDF.js), split by headings then by size with overlap, embedded in batches and stored with full-text vectors. Poll the document for its status.',
  })
  @ApiAcceptedResponse({ type: DocumentQueuedResponseDto, example: QUEUED_EXAMPLE })
  @ApiNotFoundResponse({ description: 'No such knowledge base' })
  add(@CurrentPrincipal() p: Principal, @Param('id', uuid()) kbId: string, @Body() b: AddDocumentRequestDto): Promise<{ id: string; status: 'queued' }> {
    return this.documents.add(p, kbId, b);
  }

  @Get()
  @RequireScopes('kb:read')
  @ApiOperation({ summary: 'List documents', description: 'Filter by `status`.' })
  @ApiPageResponse(DocumentResponseDto, { example: { data: [DOCUMENT_EXAMPLE], next_cursor: null } })
  list(@CurrentPrincipal() p: Principal, @Param('id', uuid()) kbId: string, @Query() q: ListDocumentsQueryDto): Promise<Page<DocumentResponse>> {
    return this.documents.list(p, kbId, q);
  }

  @Get(':documentId')
  @RequireScopes('kb:read')
  @ApiOperation({ summary: 'Get a document', description: 'With its indexing status and, when it failed, the reason.' })
  @ApiOkResponse({ type: DocumentResponseDto, example: DOCUMENT_EXAMPLE })
  @ApiNotFoundResponse({ description: 'No such document' })
  get(@CurrentPrincipal() p: Principal, @Param('id', uuid()) kbId: string, @Param('documentId', uuid()) id: string): Promise<DocumentResponse> {
    return this.documents.get(p, kbId, id);
  }

  @Delete(':documentId')
  @HttpCode(204)
  @RequireScopes('kb:write')
  @ApiOperation({ summary: 'Delete a document', description: 'Its chunks leave the knowledge base at once.' })
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiNotFoundResponse({ description: 'No such document' })
  delete(@CurrentPrincipal() p: Principal, @Param('id', uuid()) kbId: string, @Param('documentId', uuid()) id: string): Promise<void> {
    return this.documents.delete(p, kbId, id);
  }

  @Post(':documentId/reindex')
  @HttpCode(202)
  @RequireScopes('kb:write')
  @ApiOperation({ summary: 'Re-index a document', description: "Drops its chunks and indexes it again (with the knowledge base's current chunking)." })
  @ApiAcceptedResponse({ type: DocumentQueuedResponseDto, example: QUEUED_EXAMPLE })
  @ApiNotFoundResponse({ description: 'No such document' })
  reindex(
    @CurrentPrincipal() p: Principal,
    @Param('id', uuid()) kbId: string,
    @Param('documentId', uuid()) id: string,
  ): Promise<{ id: string; status: 'queued' }> {
    return this.documents.reindex(p, kbId, id);
  }
}
