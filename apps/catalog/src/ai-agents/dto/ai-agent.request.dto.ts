import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { PageQueryDto, MaxItems } from '@platform/service';

export const TOOL_TYPES = ['workflow', 'knowledge_base', 'connector'] as const;

export class AgentToolDto {
  @ApiProperty({ enum: TOOL_TYPES, example: 'workflow' })
  @IsIn(TOOL_TYPES)
  type!: (typeof TOOL_TYPES)[number];

  @ApiProperty({ example: 'lookup_order', description: 'The function name the model sees' })
  @IsString()
  @Matches(/^[a-zA-Z0-9_-]{1,64}$/, { message: 'must be 1-64 letters, digits, _ or -' })
  name!: string;

  @ApiProperty({ example: 'Looks up an order by its number and returns its status' })
  @IsString()
  @MinLength(1)
  @MaxLength(2000)
  description!: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'workflow tools: the workflow started (and awaited) with the tool input as its input' })
  @IsOptional()
  @IsUUID()
  workflow_id?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'knowledge_base tools: the knowledge base queried with `{ query }`' })
  @IsOptional()
  @IsUUID()
  knowledge_base_id?: string;

  @ApiPropertyOptional({ type: 'integer', example: 4, description: 'knowledge_base tools: chunks returned' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(20)
  top_k?: number;

  @ApiPropertyOptional({ format: 'uuid', description: 'connector tools: the connection to use' })
  @IsOptional()
  @IsUUID()
  connection_id?: string;

  @ApiPropertyOptional({
    example: 'hubspot',
    description: "connector tools: instead of connection_id, the calling customer's own connection of this connector",
  })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  customer_connection?: string;

  @ApiPropertyOptional({ example: 'contacts.search', description: 'connector tools: the operation' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  operation_id?: string;

  @ApiPropertyOptional({
    example: { type: 'object', properties: { order_id: { type: 'string' } } },
    description: 'JSON Schema of the input (workflow and connector tools)',
  })
  @IsOptional()
  @IsObject()
  parameters?: Record<string, unknown>;

  @ApiPropertyOptional({ example: false, description: 'A person must approve each call: the run waits for an approval task (task service), see docs/ai.md' })
  @IsOptional()
  @IsBoolean()
  requires_approval?: boolean;
}

export class CreateAiAgentRequestDto {
  @ApiProperty({ example: 'Support assistant' })
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name!: string;

  @ApiPropertyOptional({ example: 'Answers customer questions with the handbook and the order workflow' })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  description?: string;

  @ApiProperty({
    example: 'local/extractive-summary',
    description:
      'A chat model from GET /catalog/llm-models: `local/extractive-summary` is built in (every tenant has it); others come from the providers added with POST /ai/providers, e.g. `openai/gpt-4o-mini`',
  })
  @IsString()
  @MaxLength(200)
  model!: string;

  @ApiProperty({ example: 'You are a support assistant. Use the tools; cite the handbook.' })
  @IsString()
  @MinLength(1)
  @MaxLength(50_000)
  instructions!: string;

  @ApiPropertyOptional({ type: [AgentToolDto] })
  @IsOptional()
  @IsArray()
  @MaxItems(64)
  @ValidateNested({ each: true })
  @Type(() => AgentToolDto)
  tools?: AgentToolDto[];

  @ApiPropertyOptional({ type: 'integer', example: 8, description: 'Most model and tool calls of one run (default AI_AGENT_MAX_STEPS)' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(200)
  max_steps?: number;

  @ApiPropertyOptional({ type: 'integer', example: 120, description: 'Time budget of one run in seconds (default AI_AGENT_TIME_BUDGET_MS)' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(86_400)
  time_budget_seconds?: number;
}

export class UpdateAiAgentRequestDto {
  @ApiPropertyOptional({ example: 'Support assistant (EU)' }) @IsOptional() @IsString() @MinLength(1) @MaxLength(200) name?: string;
  @ApiPropertyOptional({ example: 'Answers EU customers' }) @IsOptional() @IsString() @MaxLength(2000) description?: string;
  @ApiPropertyOptional({ example: 'local/extractive-summary' }) @IsOptional() @IsString() @MaxLength(200) model?: string;
  @ApiPropertyOptional({ example: 'Answer in the customer’s language.' }) @IsOptional() @IsString() @MinLength(1) @MaxLength(50_000) instructions?: string;

  @ApiPropertyOptional({ type: [AgentToolDto] })
  @IsOptional()
  @IsArray()
  @MaxItems(64)
  @ValidateNested({ each: true })
  @Type(() => AgentToolDto)
  tools?: AgentToolDto[];

  @ApiPropertyOptional({ type: 'integer', example: 12 }) @IsOptional() @IsInt() @Min(1) @Max(200) max_steps?: number;
  @ApiPropertyOptional({ type: 'integer', example: 60 }) @IsOptional() @IsInt() @Min(1) @Max(86_400) time_budget_seconds?: number;
}

export class ListAiAgentsQueryDto extends PageQueryDto {}
