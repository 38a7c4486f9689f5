import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsInt, IsObject, IsOptional, IsString, Length, Min, ValidateIf } from 'class-validator';
import { PageQueryDto } from '@platform/service';
import type { StepDefinition } from '../../engine/steps/step-executor.js';
import { DEFINITION_EXAMPLE } from '../definition/definition.schema.js';
import type { WorkflowSettings } from '../definition/workflow-definition.js';

export class WorkflowDefinitionDto {
  @ApiProperty({ type: 'array', items: { $ref: '#/components/schemas/WorkflowStep' }, example: DEFINITION_EXAMPLE })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(500)
  @IsObject({ each: true })
  steps!: StepDefinition[];

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, example: { type: 'object', properties: { x: { type: 'number' } } }, description: 'JSON Schema of the run input (documentation for callers)' })
  @ValidateIf((o: WorkflowDefinitionDto) => o.input_schema !== undefined && o.input_schema !== null)
  @IsObject()
  input_schema?: Record<string, unknown> | null;

  @ApiPropertyOptional({ example: { timeout_seconds: 300, retention_days: 30 } })
  @IsOptional()
  @IsObject()
  settings?: WorkflowSettings;
}

export class CreateWorkflowRequestDto extends WorkflowDefinitionDto {
  @ApiProperty({ example: 'Double and notify', minLength: 1, maxLength: 200 })
  @IsString()
  @Length(1, 200)
  name!: string;

  @ApiPropertyOptional({ example: 'Doubles x and posts big results' })
  @ValidateIf((o: CreateWorkflowRequestDto) => o.description !== undefined && o.description !== null)
  @IsString()
  @Length(0, 2000)
  description?: string | null;
}

export class PatchWorkflowRequestDto {
  @ApiPropertyOptional({ example: 'Renamed' })
  @IsOptional()
  @IsString()
  @Length(1, 200)
  name?: string;

  @ApiPropertyOptional()
  @ValidateIf((o: PatchWorkflowRequestDto) => o.description !== undefined && o.description !== null)
  @IsString()
  @Length(0, 2000)
  description?: string | null;

  @ApiPropertyOptional({ enum: ['active', 'disabled'], description: 'A disabled workflow cannot be started' })
  @IsOptional()
  @IsIn(['active', 'disabled'])
  status?: 'active' | 'disabled';

  @ApiPropertyOptional({ type: 'array', items: { $ref: '#/components/schemas/WorkflowStep' } })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(500)
  @IsObject({ each: true })
  steps?: StepDefinition[];

  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  @ValidateIf((o: PatchWorkflowRequestDto) => o.input_schema !== undefined && o.input_schema !== null)
  @IsObject()
  input_schema?: Record<string, unknown> | null;

  @ApiPropertyOptional()
  @IsOptional()
  @IsObject()
  settings?: WorkflowSettings;
}

export class ListWorkflowsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: ['active', 'disabled'] })
  @IsOptional()
  @IsIn(['active', 'disabled'])
  status?: string;

  @ApiPropertyOptional({ description: 'Name prefix, case-insensitive' })
  @IsOptional()
  @IsString()
  @Length(1, 200)
  name?: string;
}

export class GetWorkflowQueryDto {
  @ApiPropertyOptional({ description: 'A past version (default: the current one)' })
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
