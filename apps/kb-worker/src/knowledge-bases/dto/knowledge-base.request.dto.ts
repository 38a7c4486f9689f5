import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';
import { PageQueryDto, IsNestedObject } from '@platform/service';

export class ChunkingDto {
  @ApiProperty({ type: 'integer', example: 1000, minimum: 200, maximum: 8000, description: 'Most characters of a chunk' })
  @IsInt()
  @Min(200)
  @Max(8000)
  size!: number;

  @ApiProperty({
    type: 'integer',
    example: 150,
    minimum: 0,
    description: 'Characters repeated from the end of one chunk at the start of the next (less than half the size)',
  })
  @IsInt()
  @Min(0)
  @Max(4000)
  overlap!: number;
}

export class CreateKnowledgeBaseRequestDto {
  @ApiProperty({ example: 'Support handbook' })
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name!: string;

  @ApiPropertyOptional({ example: 'Policies and how-tos for the support team' })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  description?: string;

  @ApiPropertyOptional({
    example: 'local/hash-embedding-384',
    default: 'local/hash-embedding-384',
    description: 'An embedding model from GET /ai/models; fixed once created',
  })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  embedding_model?: string;

  @ApiPropertyOptional({
    example: 'local/extractive-summary',
    default: 'local/extractive-summary',
    description: 'The chat model that writes answers for `answer: true`',
  })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  answer_model?: string;

  @ApiPropertyOptional({ type: ChunkingDto, example: { size: 1000, overlap: 150 } })
  @IsOptional()
  @IsNestedObject(() => ChunkingDto)
  chunking?: ChunkingDto;
}

export class UpdateKnowledgeBaseRequestDto {
  @ApiPropertyOptional({ example: 'Support handbook' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name?: string;

  @ApiPropertyOptional({ example: 'Policies and how-tos', nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  description?: string;

  @ApiPropertyOptional({ example: 'openai/gpt-4o-mini' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  answer_model?: string;

  @ApiPropertyOptional({ type: ChunkingDto, description: 'Applies to documents indexed from now on (re-index to apply it to existing ones)' })
  @IsOptional()
  @IsNestedObject(() => ChunkingDto)
  chunking?: ChunkingDto;
}

export class ListKnowledgeBasesQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ example: 'Support handbook', description: 'Only knowledge bases of this exact name' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  name?: string;
}
