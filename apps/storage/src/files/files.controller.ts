import { Controller, Delete, Get, Headers, HttpCode, Logger, Param, ParseUUIDPipe, Post, Query, Req, Res } from '@nestjs/common';
import {
  ApiBody,
  ApiConflictResponse,
  ApiConsumes,
  ApiCreatedResponse,
  ApiHeader,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiPartialContentResponse,
  ApiProduces,
  ApiRequestedRangeNotSatisfiableResponse,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { CurrentPrincipal, RequireScopes, type Principal } from '@platform/auth';
import { type Page, type RequestWithId } from '@platform/common';
import { AcceptsContentTypes, ApiPageResponse, ApiTag } from '@platform/service';
import { FileResponseDto, VerifyFileResponseDto } from './dto/file.response.dto.js';
import { FILE_EXAMPLE, type FileResponse } from './file.record.js';
import { sendDownload } from './file-download.js';
import { FileUploadsService } from './file-uploads.service.js';
import { FilesService, type VerifyResult } from './files.service.js';
import { ListFilesQueryDto } from './dto/list-files.query.dto.js';

const uuid = new ParseUUIDPipe({ version: undefined });

const UPLOAD_BODY = {
  schema: {
    type: 'object',
    required: ['file'],
    properties: {
      file: { type: 'string', format: 'binary', description: 'The content; its type is sniffed from the bytes, not taken from the part header' },
      name: { type: 'string', maxLength: 255, example: 'invoices/2026-11.pdf', description: "Defaults to the part's filename" },
      metadata: { type: 'string', example: '{"customer":"crm-4711"}', description: 'A JSON object, up to 16 KiB' },
    },
  },
};

@ApiTag('files', 'Files of the tenant: streamed multipart upload, metadata, ranged download, checksum verification, deletion.')
@Controller('storage/files')
export class FilesController {
  private readonly logger = new Logger(FilesController.name);

  constructor(
    private readonly files: FilesService,
    private readonly uploads: FileUploadsService,
  ) {}

  @Post('upload')
  @RequireScopes('storage:write')
  @AcceptsContentTypes('multipart/form-data')
  @ApiOperation({
    summary: 'Upload a file',
    description:
      'A multipart/form-data upload, streamed to storage (up to UPLOAD_LIMIT_BYTES, default 100 MiB): the `file` part, and optionally `name` and `metadata`. The content type is sniffed from the bytes; a SHA-256 checksum is recorded.',
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody(UPLOAD_BODY)
  @ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    schema: { type: 'string', example: 'invoice-2026-11-upload' },
    description: 'The same key and upload within 24 h return the first answer (with Idempotent-Replayed: true); another upload with the key is 409',
  })
  @ApiCreatedResponse({ type: FileResponseDto, description: "The file's metadata", example: FILE_EXAMPLE })
  @ApiConflictResponse({ description: 'This Idempotency-Key was used with a different upload in the last 24 hours' })
  async upload(
    @CurrentPrincipal() principal: Principal,
    @Req() req: Request & RequestWithId,
    @Res({ passthrough: true }) res: Response,
    @Headers('idempotency-key') idempotencyKey?: string,
  ): Promise<FileResponse> {
    const result = await this.uploads.upload(principal, req, idempotencyKey);
    if (result.replayed) res.setHeader('Idempotent-Replayed', 'true');
    return result.file;
  }

  @Get()
  @RequireScopes('storage:read')
  @ApiOperation({ summary: 'List files', description: 'Metadata of the files, newest first; filter by name prefix, content type and creation time.' })
  @ApiPageResponse(FileResponseDto, { example: { data: [FILE_EXAMPLE], next_cursor: null } })
  list(@CurrentPrincipal() principal: Principal, @Query() query: ListFilesQueryDto): Promise<Page<FileResponse>> {
    return this.files.list(principal, query);
  }

  @Get(':id')
  @RequireScopes('storage:read')
  @ApiOperation({ summary: 'Get a file', description: "A file's metadata: name, size, sniffed content type, checksum, metadata, times." })
  @ApiOkResponse({ type: FileResponseDto, description: "The file's metadata", example: FILE_EXAMPLE })
  get(@CurrentPrincipal() principal: Principal, @Param('id', uuid) id: string): Promise<FileResponse> {
    return this.files.get(principal, id);
  }

  @Get(':id/content')
  @RequireScopes('storage:read')
  @ApiOperation({
    summary: 'Download a file',
    description: 'The content, streamed. `Range: bytes=a-b` gives 206 with that part; a range outside the file gives 416.',
  })
  // The file's own type, as sniffed at upload (text/plain, image/png, …): `*/*`, not octet-stream, so clients take what is sent.
  @ApiProduces('*/*')
  @ApiHeader({ name: 'Range', required: false, schema: { type: 'string', example: 'bytes=0-1023' }, description: 'One byte range' })
  @ApiOkResponse({
    description:
      'The bytes, with the Content-Type sniffed at upload (application/octet-stream when nothing was recognised), Content-Length, ETag (the SHA-256) and Content-Disposition: attachment',
    schema: { type: 'string', format: 'binary' },
  })
  @ApiPartialContentResponse({ description: 'The requested range, with Content-Range', schema: { type: 'string', format: 'binary' } })
  @ApiRequestedRangeNotSatisfiableResponse({ description: 'The range is outside the file' })
  async content(@CurrentPrincipal() principal: Principal, @Param('id', uuid) id: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    sendDownload(await this.files.openDownload(principal, id, req.headers.range), req, res, this.logger);
  }

  @Get(':id/verify')
  @RequireScopes('storage:read')
  @ApiOperation({ summary: 'Verify a file', description: 'Re-reads the stored content and compares its SHA-256 with the checksum recorded at upload.' })
  @ApiOkResponse({
    type: VerifyFileResponseDto,
    description: 'Whether the content is intact',
    example: { id: FILE_EXAMPLE.id, checksum_sha256: FILE_EXAMPLE.checksum_sha256, valid: true },
  })
  verify(@CurrentPrincipal() principal: Principal, @Param('id', uuid) id: string): Promise<VerifyResult> {
    return this.files.verify(principal, id);
  }

  @Delete(':id')
  @HttpCode(204)
  @RequireScopes('storage:write')
  @ApiOperation({ summary: 'Delete a file', description: "Deletes the file's metadata and its content." })
  @ApiNoContentResponse({ description: 'Deleted' })
  delete(@CurrentPrincipal() principal: Principal, @Param('id', uuid) id: string): Promise<void> {
    return this.files.delete(principal, id);
  }
}
