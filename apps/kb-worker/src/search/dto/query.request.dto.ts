import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsArray, IsBoolean, IsIn, IsInt, IsObject, IsOptional, IsString, IsUUID, Max, MaxLength, Min, MinLength } from 'class-validator';
import { IsNestedObject, MaxItems } from '@platform/service';

export class QueryFilterDto {
  @ApiPropertyOptional({ type: [String], format: 'uuid', description: 'Only these documents' })
  @IsOptional()
  @IsArray()
  @MaxItems(1000)
  @IsUUID('all', { each: true })
  document_ids?: string[];

  @ApiPropertyOptional({ enum: ['text/plain', 'text/markdown', 'text/html', 'application/pdf'] })
  @IsOptional()
  @IsIn(['text/plain', 'text/markdown', 'text/html', 'application/pdf'])
  content_type?: string;

  @ApiPropertyOptional({ example: { team: 'support' }, description: 'Documents whose metadata contains these keys and values' })
  @IsOptional()
  @IsObject()
  metadata?: Record<string, unknown>;
}

export class QueryRequestDto {
  @ApiProperty({ example: 'How long do customers have to ask for a refund?' })
  @IsString()
  @MinLength(1)
  @MaxLength(10_000)
  query!: string;

  @ApiPropertyOptional({ type: 'integer', example: 5, default: 5, minimum: 1, maximum: 50 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(50)
  top_k?: number;

  @ApiPropertyOptional({ type: QueryFilterDto })
  @IsOptional()
  @IsNestedObject(() => QueryFilterDto)
  filter?: QueryFilterDto;

  @ApiPropertyOptional({ example: true, description: "The knowledge base's answer model writes an answer from the chunks, citing them" })
  @IsOptional()
  @IsBoolean()
  answer?: boolean;
}

export const QUERY_EXAMPLE = {
  chunks: [
    {
      document_id: '01937b70-1111-7cc1-9f3e-5b1a2c3d4e5f',
      chunk_id: '01937b70-2222-7cc1-9f3e-5b1a2c3d4e5f',
      document_name: 'refunds.md',
      text: '# Refunds\n\nRefunds are accepted within 30 days of purchase.',
      score: 0.032787,
      position: { index: 0, start: 0, end: 58, heading: 'Refunds' },
    },
  ],
  answer: 'Customers can ask for a refund within 30 days of purchase [1].',
  citations: [{ marker: 1, document_id: '01937b70-1111-7cc1-9f3e-5b1a2c3d4e5f', chunk_id: '01937b70-2222-7cc1-9f3e-5b1a2c3d4e5f' }],
  model: 'openai/gpt-4o-mini',
};

export class QueryResponseDto {
  @ApiProperty({
    type: 'array',
    items: { type: 'object' },
    description: 'Best first; `score` is the reciprocal-rank-fusion score of the vector and full-text rankings',
  })
  chunks!: Record<string, unknown>[];
  @ApiPropertyOptional({ description: 'With answer: true' }) answer?: string;
  @ApiPropertyOptional({ type: 'array', items: { type: 'object' }, description: '`{ marker, document_id, chunk_id }`: marker n is the n-th chunk' })
  citations?: Record<string, unknown>[];
  @ApiPropertyOptional({ description: 'The model that wrote the answer' }) model?: string;
}
