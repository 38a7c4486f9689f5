import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { IsNestedObject, MaxItems } from '@platform/service';
import { RESPONSE_FORMATS, type ResponseFormat } from '@platform/messaging';

/** Options of generate and chat alike. */
class CompletionOptionsDto {
  @ApiProperty({ example: 'local/extractive-summary', description: '`<provider>/<model>`: GET /ai/models lists them' })
  @IsString()
  @MaxLength(200)
  model!: string;

  @ApiPropertyOptional({ type: 'integer', example: 512, description: 'Most tokens to generate' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(200_000)
  max_tokens?: number;

  @ApiPropertyOptional({ example: 0.2, minimum: 0, maximum: 2 })
  @IsOptional()
  @IsNumber()
  @Min(0)
  @Max(2)
  temperature?: number;

  @ApiPropertyOptional({ enum: RESPONSE_FORMATS, example: 'text', description: '`json` asks the model for one JSON object (OpenAI `json_object` mode)' })
  @IsOptional()
  @IsIn(RESPONSE_FORMATS)
  response_format?: ResponseFormat;

  @ApiPropertyOptional({ example: false, description: 'Answer as server-sent events, one per generated piece of text' })
  @IsOptional()
  @IsBoolean()
  stream?: boolean;
}

export class GenerateRequestDto extends CompletionOptionsDto {
  @ApiProperty({ example: 'Summarise: the quarterly report shows revenue up 12%…' })
  @IsString()
  @MaxLength(400_000)
  prompt!: string;

  @ApiPropertyOptional({ example: 'You are a concise analyst.' })
  @IsOptional()
  @IsString()
  @MaxLength(100_000)
  system?: string;
}

class ToolCallFunctionDto {
  @ApiProperty({ example: 'lookup_order' })
  @IsString()
  @MaxLength(200)
  name!: string;

  @ApiProperty({ example: '{"order_id":"A-1"}', description: 'JSON text, as the model produced it' })
  @IsString()
  @MaxLength(100_000)
  arguments!: string;
}

export class ToolCallDto {
  @ApiProperty({ example: 'call_1' })
  @IsString()
  @MaxLength(200)
  id!: string;

  @ApiProperty({ enum: ['function'] })
  @IsIn(['function'])
  type!: 'function';

  @ApiProperty({ type: ToolCallFunctionDto })
  @IsNestedObject(() => ToolCallFunctionDto)
  function!: ToolCallFunctionDto;
}

export class ChatMessageDto {
  @ApiProperty({ enum: ['system', 'user', 'assistant', 'tool'], example: 'user' })
  @IsIn(['system', 'user', 'assistant', 'tool'])
  role!: 'system' | 'user' | 'assistant' | 'tool';

  @ApiProperty({ type: 'string', nullable: true, example: 'What is the refund policy?' })
  @ValidateIf((m: ChatMessageDto) => m.content !== null || m.role !== 'assistant')
  @IsString()
  @MaxLength(400_000)
  content!: string | null;

  @ApiPropertyOptional({ example: 'alice' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  name?: string;

  @ApiPropertyOptional({ type: [ToolCallDto], description: 'On assistant turns: the calls the model made' })
  @IsOptional()
  @IsArray()
  @MaxItems(128)
  @ValidateNested({ each: true })
  @Type(() => ToolCallDto)
  tool_calls?: ToolCallDto[];

  @ApiPropertyOptional({ example: 'call_1', description: 'On tool turns: the call this is the result of' })
  @ValidateIf((m: ChatMessageDto) => m.role === 'tool' || m.tool_call_id !== undefined)
  @IsString()
  @MaxLength(200)
  tool_call_id?: string;
}

class ToolFunctionDto {
  @ApiProperty({ example: 'lookup_order' })
  @IsString()
  @Matches(/^[a-zA-Z0-9_-]{1,64}$/, { message: 'must be 1-64 letters, digits, _ or -' })
  name!: string;

  @ApiPropertyOptional({ example: 'Find an order by its id' })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  description?: string;

  @ApiPropertyOptional({
    example: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] },
    description: 'JSON Schema of the arguments',
  })
  @IsOptional()
  @IsObject()
  parameters?: Record<string, unknown>;
}

export class ToolDto {
  @ApiProperty({ enum: ['function'] })
  @IsIn(['function'])
  type!: 'function';

  @ApiProperty({ type: ToolFunctionDto })
  @IsNestedObject(() => ToolFunctionDto)
  function!: ToolFunctionDto;
}

export class ChatRequestDto extends CompletionOptionsDto {
  @ApiProperty({ type: [ChatMessageDto], example: [{ role: 'user', content: 'What is the refund policy?' }] })
  @IsArray()
  @ArrayMinSize(1)
  @MaxItems(1000)
  @ValidateNested({ each: true })
  @Type(() => ChatMessageDto)
  messages!: ChatMessageDto[];

  @ApiPropertyOptional({ type: [ToolDto], description: 'Functions the model may call; its calls come back in `message.tool_calls`' })
  @IsOptional()
  @IsArray()
  @MaxItems(128)
  @ValidateNested({ each: true })
  @Type(() => ToolDto)
  tools?: ToolDto[];
}

export class EmbeddingsRequestDto {
  @ApiPropertyOptional({ example: 'local/hash-embedding-384', default: 'local/hash-embedding-384' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  model?: string;

  @ApiProperty({ oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }], example: ['How do refunds work?'] })
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? [value] : value))
  @IsArray()
  @ArrayMinSize(1)
  @MaxItems(2048)
  @IsString({ each: true })
  @MaxLength(100_000, { each: true })
  input!: string[];
}
