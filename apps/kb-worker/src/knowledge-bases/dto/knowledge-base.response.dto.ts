import { ApiProperty } from '@nestjs/swagger';
import { ChunkingDto } from './knowledge-base.request.dto.js';

export const KNOWLEDGE_BASE_EXAMPLE = {
  id: '01937b6e-6c1a-7cc1-9f3e-5b1a2c3d4e5f',
  name: 'Support handbook',
  description: 'Policies and how-tos for the support team',
  embedding_model: 'local/hash-embedding-384',
  answer_model: 'local/extractive-summary',
  chunking: { size: 1000, overlap: 150 },
  customer_id: null,
  created_at: '2026-11-24T10:00:00.000Z',
  updated_at: '2026-11-24T10:00:00.000Z',
};

export class KnowledgeBaseResponseDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ nullable: true, type: 'string' }) description!: string | null;
  @ApiProperty() embedding_model!: string;
  @ApiProperty() answer_model!: string;
  @ApiProperty({ type: ChunkingDto }) chunking!: ChunkingDto;
  @ApiProperty({
    nullable: true,
    type: 'string',
    format: 'uuid',
    description: 'The owning customer; null for tenant-wide knowledge bases (readable by customers)',
  })
  customer_id!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}
