import { ApiProperty } from '@nestjs/swagger';

export class LlmModelDto {
  @ApiProperty({ example: 'local/extractive-summary', description: 'What requests name: `<provider>/<model>`' }) id!: string;
  @ApiProperty({ example: 'local' }) provider!: string;
  @ApiProperty({ enum: ['chat', 'embedding'], example: 'chat' }) kind!: string;
  @ApiProperty({ example: 'Built-in, offline: extractive summary' }) description!: string;
}

export const LLM_MODELS_EXAMPLE = {
  data: [
    { id: 'local/extractive-summary', provider: 'local', kind: 'chat', description: 'Built-in, offline: extractive summary' },
    { id: 'local/hash-embedding-384', provider: 'local', kind: 'embedding', description: 'Built-in, offline: feature hashing, 384 dimensions' },
  ],
  next_cursor: null,
};
