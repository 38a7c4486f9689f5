import { ApiProperty } from '@nestjs/swagger';

export const DOCUMENT_EXAMPLE = {
  id: '01937b70-1111-7cc1-9f3e-5b1a2c3d4e5f',
  knowledge_base_id: '01937b6e-6c1a-7cc1-9f3e-5b1a2c3d4e5f',
  name: 'refunds.md',
  content_type: 'text/markdown',
  source: { type: 'upload' },
  metadata: { team: 'support' },
  status: 'ready',
  error: null,
  chunk_count: 3,
  size_bytes: 2048,
  customer_id: null,
  created_at: '2026-11-24T10:00:00.000Z',
  updated_at: '2026-11-24T10:00:01.000Z',
  indexed_at: '2026-11-24T10:00:01.000Z',
};
export const QUEUED_EXAMPLE = { id: DOCUMENT_EXAMPLE.id, status: 'queued' };

export class DocumentQueuedResponseDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ enum: ['queued'] }) status!: string;
}

export class DocumentResponseDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) knowledge_base_id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ nullable: true, type: 'string' }) content_type!: string | null;
  @ApiProperty({ description: '`{ type: "upload" }`, `{ type: "file", file_id }` or `{ type: "url", url }`' }) source!: Record<string, unknown>;
  @ApiProperty() metadata!: Record<string, unknown>;
  @ApiProperty({ enum: ['queued', 'indexing', 'ready', 'failed'] }) status!: string;
  @ApiProperty({ nullable: true, type: 'string', description: 'Why indexing failed' }) error!: string | null;
  @ApiProperty() chunk_count!: number;
  @ApiProperty({ nullable: true, type: 'integer' }) size_bytes!: number | null;
  @ApiProperty({ nullable: true, type: 'string', format: 'uuid' }) customer_id!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: 'string' }) indexed_at!: string | null;
}
