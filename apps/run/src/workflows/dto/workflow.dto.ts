import { ApiProperty, ApiPropertyOptional, IntersectionType, PartialType, PickType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMinSize, IsArray, IsIn, IsInt, IsObject, IsOptional, IsString, Length, Min, ValidateIf } from 'class-validator';
import { PageQueryDto, MaxItems } from '@platform/service';
import type { StepDefinition } from '../../engine/steps/step-executor.js';
import { DEFINITION_EXAMPLE } from '../definition/definition.schema.js';
import type { WorkflowSettings } from '../definition/workflow-definition.js';

export class WorkflowSettingsDto {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    example: 300,
    description: 'An execution running longer ends timed_out (default RUN_DEFAULT_TIMEOUT_SECONDS, 3600)',
  })
  timeout_seconds?: number;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    example: 30,
    description: 'Finished executions older than this are pruned (default RUN_RETENTION_DAYS, 30)',
  })
  retention_days?: number;
}

export class WorkflowDefinitionDto {
  @ApiProperty({ type: 'array', items: { $ref: '#/components/schemas/WorkflowStep' }, example: DEFINITION_EXAMPLE })
  @IsArray()
  @ArrayMinSize(1)
  @MaxItems(500)
  @IsObject({ each: true })
  steps!: StepDefinition[];

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    example: { type: 'object', properties: { x: { type: 'number' } } },
    description: 'JSON Schema of the run input (documentation for callers); null: none',
  })
  @ValidateIf((o: WorkflowDefinitionDto) => o.input_schema !== undefined && o.input_schema !== null)
  @IsObject()
  input_schema?: Record<string, unknown> | null;

  @ApiPropertyOptional({ type: WorkflowSettingsDto, example: { timeout_seconds: 300, retention_days: 30 } })
  @IsOptional()
  @IsObject()
  settings?: WorkflowSettings;
}

export class CreateWorkflowRequestDto extends WorkflowDefinitionDto {
  @ApiProperty({ example: 'Double and notify', minLength: 1, maxLength: 200 })
  @IsString()
  @Length(1, 200)
  name!: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 2000, example: 'Doubles x and posts big results' })
  @ValidateIf((o: CreateWorkflowRequestDto) => o.description !== undefined && o.description !== null)
  @IsString()
  @Length(0, 2000)
  description?: string | null;
}

/**
 * What `POST /workflows/validate` takes: the body of create, with `name` optional, so a file that
 * creates a workflow validates as it is (and a bare definition still does).
 */
export class ValidateWorkflowRequestDto extends IntersectionType(
  WorkflowDefinitionDto,
  PartialType(PickType(CreateWorkflowRequestDto, ['name', 'description'] as const)),
) {}

export class PatchWorkflowRequestDto {
  @ApiPropertyOptional({ example: 'Renamed' })
  @IsOptional()
  @IsString()
  @Length(1, 200)
  name?: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 2000, example: 'Doubles x and posts big results to the hook', description: 'null clears it' })
  @ValidateIf((o: PatchWorkflowRequestDto) => o.description !== undefined && o.description !== null)
  @IsString()
  @Length(0, 2000)
  description?: string | null;

  @ApiPropertyOptional({ enum: ['active', 'disabled'], example: 'disabled', description: 'A disabled workflow cannot be started' })
  @IsOptional()
  @IsIn(['active', 'disabled'])
  status?: 'active' | 'disabled';

  @ApiPropertyOptional({ type: 'array', items: { $ref: '#/components/schemas/WorkflowStep' }, example: DEFINITION_EXAMPLE })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @MaxItems(500)
  @IsObject({ each: true })
  steps?: StepDefinition[];

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    example: { type: 'object', properties: { x: { type: 'number' } } },
    description: 'JSON Schema of the run input; null clears it',
  })
  @ValidateIf((o: PatchWorkflowRequestDto) => o.input_schema !== undefined && o.input_schema !== null)
  @IsObject()
  input_schema?: Record<string, unknown> | null;

  @ApiPropertyOptional({ type: WorkflowSettingsDto, example: { timeout_seconds: 600 } })
  @IsOptional()
  @IsObject()
  settings?: WorkflowSettings;
}

export class ListWorkflowsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: ['active', 'disabled'], example: 'active', description: 'Workflows in this status only' })
  @IsOptional()
  @IsIn(['active', 'disabled'])
  status?: string;

  @ApiPropertyOptional({ description: 'Name prefix, case-insensitive', example: 'Double' })
  @IsOptional()
  @IsString()
  @Length(1, 200)
  name?: string;
}

export class GetWorkflowQueryDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, example: 1, description: 'A past version (default: the current one)' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  version?: number;
}

export interface WorkflowResponse {
  id: string;
  name: string;
  description: string | null;
  version: number;
  status: 'active' | 'disabled';
  input_schema: Record<string, unknown> | null;
  steps: StepDefinition[];
  settings: WorkflowSettings;
  created_at: string;
  updated_at: string;
}

export class WorkflowResponseDto {
  @ApiProperty({ format: 'uuid', example: '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9f' })
  id!: string;

  @ApiProperty({ example: 'Double and notify' })
  name!: string;

  @ApiProperty({ type: String, nullable: true, example: 'Doubles x and posts big results' })
  description!: string | null;

  @ApiProperty({ type: 'integer', example: 1, description: 'Every PUT or PATCH makes a new immutable version' })
  version!: number;

  @ApiProperty({ enum: ['active', 'disabled'], example: 'active' })
  status!: 'active' | 'disabled';

  @ApiProperty({ type: 'object', additionalProperties: true, nullable: true, example: null, description: 'JSON Schema of the run input' })
  input_schema!: Record<string, unknown> | null;

  @ApiProperty({ type: 'array', items: { $ref: '#/components/schemas/WorkflowStep' }, example: DEFINITION_EXAMPLE })
  steps!: StepDefinition[];

  @ApiProperty({ type: WorkflowSettingsDto, example: {} })
  settings!: WorkflowSettings;

  @ApiProperty({ format: 'date-time', example: '2026-11-22T10:00:00.000Z' })
  created_at!: string;

  @ApiProperty({ format: 'date-time', example: '2026-11-22T10:00:00.000Z', description: 'When this version was made' })
  updated_at!: string;
}

export class DefinitionProblemDto {
  @ApiProperty({ type: String, nullable: true, example: 'notify', description: 'The step the problem is in (null for the workflow as a whole)' })
  step_id!: string | null;

  @ApiProperty({ example: 'steps[1].then[0].type', description: 'JSON path from the definition root' })
  path!: string;

  @ApiProperty({ example: "unknown step type 'htp.request'" })
  message!: string;
}

export class ValidateWorkflowResponseDto {
  @ApiProperty({ example: false })
  valid!: boolean;

  @ApiProperty({ type: [DefinitionProblemDto] })
  problems!: DefinitionProblemDto[];
}
