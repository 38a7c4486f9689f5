import { ApiProperty } from '@nestjs/swagger';

export class UsageDto {
  @ApiProperty({ example: 42 }) prompt_tokens!: number;
  @ApiProperty({ example: 17 }) completion_tokens!: number;
  @ApiProperty({ example: 59 }) total_tokens!: number;
}

const USAGE = { prompt_tokens: 42, completion_tokens: 17, total_tokens: 59 };

export const GENERATE_EXAMPLE = { model: 'openai/gpt-4o-mini', text: 'Revenue grew 12% on the quarter.', finish_reason: 'stop', usage: USAGE };
export const CHAT_EXAMPLE = {
  model: 'openai/gpt-4o-mini',
  message: { role: 'assistant', content: 'Refunds are accepted within 30 days.' },
  finish_reason: 'stop',
  usage: USAGE,
};
export const EMBEDDINGS_EXAMPLE = { model: 'local/hash-embedding-384', dimensions: 384, data: [{ index: 0, embedding: [0.0123, -0.0456] }], usage: USAGE };
export const MODELS_EXAMPLE = {
  data: [
    { id: 'local/extractive-summary', provider: 'local', kind: 'chat', description: 'Built-in, offline: extractive summary' },
    { id: 'local/hash-embedding-384', provider: 'local', kind: 'embedding', description: 'Built-in, offline: feature hashing, 384 dimensions' },
  ],
};
export const SSE_EXAMPLE = [
  'data: {"type":"delta","text":"Refunds are "}',
  'data: {"type":"delta","text":"accepted within 30 days."}',
  'data: {"type":"done","model":"openai/gpt-4o-mini","finish_reason":"stop","usage":{"prompt_tokens":42,"completion_tokens":17,"total_tokens":59},"message":{"role":"assistant","content":"Refunds are accepted within 30 days."}}',
  'data: [DONE]',
].join('\n\n');

export class GenerateResponseDto {
  @ApiProperty({ example: 'openai/gpt-4o-mini' }) model!: string;
  @ApiProperty() text!: string;
  @ApiProperty({ example: 'stop', description: '`stop`, `length`, `tool_calls`, …' }) finish_reason!: string;
  @ApiProperty({ type: UsageDto }) usage!: UsageDto;
}

export class ChatResponseDto {
  @ApiProperty() model!: string;
  @ApiProperty({ description: 'The assistant turn: `content`, and `tool_calls` when the model called tools' }) message!: Record<string, unknown>;
  @ApiProperty({ example: 'stop' }) finish_reason!: string;
  @ApiProperty({ type: UsageDto }) usage!: UsageDto;
}

export class EmbeddingsResponseDto {
  @ApiProperty() model!: string;
  @ApiProperty({ example: 384 }) dimensions!: number;
  @ApiProperty({ type: 'array', items: { type: 'object' }, description: '`{ index, embedding }` per input, in input order' }) data!: Record<string, unknown>[];
  @ApiProperty({ type: UsageDto }) usage!: UsageDto;
}

export class ModelDto {
  @ApiProperty({ example: 'local/hash-embedding-384' }) id!: string;
  @ApiProperty({ example: 'local' }) provider!: string;
  @ApiProperty({ enum: ['chat', 'embedding'] }) kind!: string;
  @ApiProperty() description!: string;
}
