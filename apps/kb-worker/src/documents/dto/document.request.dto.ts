import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBase64, IsIn, IsObject, IsOptional, IsString, IsUrl, IsUUID, MaxLength, MinLength } from 'class-validator';
import { PageQueryDto } from '@platform/service';

export const DOCUMENT_STATUSES = ['queued', 'indexing', 'ready', 'failed'] as const;

/** Exactly one of `text`, `content_base64`, `file_id` and `url`. */
export class AddDocumentRequestDto {
  @ApiPropertyOptional({ example: 'refunds.md', description: "Defaults to the file's name, the URL's last segment, or `document`" })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(500)
  name?: string;

  @ApiPropertyOptional({
    example: 'text/markdown',
    description:
      '`text/plain`, `text/markdown`, `text/html` or `application/pdf`; otherwise taken from the name, the stored file, the URL answer or the content itself',
  })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  content_type?: string;

  @ApiPropertyOptional({
    example: '# Refunds\n\nRefunds are accepted within 30 days of purchase.',
    description: 'The document itself, as text (plain, Markdown or HTML)',
  })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(10_000_000)
  text?: string;

  @ApiPropertyOptional({ example: 'JVBERi0xLjQK…', description: 'An uploaded file (a PDF, say) as base64' })
  @IsOptional()
  @IsBase64()
  @MaxLength(14_000_000)
  content_base64?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'A file in storage (POST /storage/files/upload), read over the bus when indexed' })
  @IsOptional()
  @IsUUID()
  file_id?: string;

  @ApiPropertyOptional({
    example: 'https://example.com/handbook.html',
    description: 'Fetched when indexed, under the SSRF rules of http.request (public addresses only)',
  })
  @IsOptional()
  @IsUrl({ protocols: ['http', 'https'], require_tld: false, require_protocol: true })
  @MaxLength(4000)
  url?: string;

  @ApiPropertyOptional({ example: { team: 'support', lang: 'en' }, description: 'Free-form; queries can filter on it (`filter.metadata`)' })
  @IsOptional()
  @IsObject()
  metadata?: Record<string, unknown>;
}

export class ListDocumentsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: DOCUMENT_STATUSES, example: 'ready', description: 'Only documents with this indexing status' })
  @IsOptional()
  @IsIn(DOCUMENT_STATUSES)
  status?: (typeof DOCUMENT_STATUSES)[number];
}
