import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDateString, IsIn, IsObject, IsOptional, IsString, IsUUID, Length } from 'class-validator';
import { PageQueryDto } from '@platform/service';

export class RunAutomationRequestDto {
  @ApiProperty({ format: 'uuid', description: 'The workflow to run', example: '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e' })
  @IsUUID()
  automation_id!: string;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, example: { x: 21 }, description: 'Free-form input; the workflow sees it as `input`' })
  @IsOptional()
  @IsObject()
  input?: Record<string, unknown>;
}

export class ExecuteWorkflowRequestDto {
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, example: { x: 21 } })
  @IsOptional()
  @IsObject()
  input?: Record<string, unknown>;
}

export class ListExecutionsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsUUID()
  workflow_id?: string;

  @ApiPropertyOptional({ enum: ['queued', 'running', 'waiting', 'succeeded', 'failed', 'cancelled', 'timed_out'] })
  @IsOptional()
  @IsIn(['queued', 'running', 'waiting', 'succeeded', 'failed', 'cancelled', 'timed_out'])
  status?: string;

  @ApiPropertyOptional({ enum: ['api', 'schedule', 'event', 'webhook', 'portal', 'subworkflow'] })
  @IsOptional()
  @IsIn(['api', 'schedule', 'event', 'webhook', 'portal', 'subworkflow'])
  trigger_type?: string;

  @ApiPropertyOptional({ example: '2026-11-01T00:00:00Z' })
  @IsOptional()
  @IsDateString({ strict: true })
  created_after?: string;

  @ApiPropertyOptional({ example: '2026-12-01T00:00:00Z' })
  @IsOptional()
  @IsDateString({ strict: true })
  created_before?: string;
}

export class ListLogsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: ['debug', 'info', 'warn', 'error'] })
  @IsOptional()
  @IsIn(['debug', 'info', 'warn', 'error'])
  level?: string;

  @ApiPropertyOptional({ example: 'fetch' })
  @IsOptional()
  @IsString()
  @Length(1, 64)
  step_id?: string;
}

export const EXECUTION_EXAMPLE = {
  id: '0194…',
  workflow_id: '0194…',
  workflow_version: 1,
  status: 'succeeded',
  input: { x: 21 },
  output: { value: 42 },
  error: null,
  trigger: { type: 'api', id: null },
  customer_id: null,
  parent_execution_id: null,
  created_at: '2026-11-22T10:00:00.000Z',
  started_at: '2026-11-22T10:00:00.010Z',
  finished_at: '2026-11-22T10:00:00.020Z',
  wake_at: null,
  steps: [{ id: 'double', path: 'double', type: 'transform', status: 'succeeded', attempt: 1, started_at: '2026-11-22T10:00:00.011Z', finished_at: '2026-11-22T10:00:00.012Z', input: { value: 42 }, output: { value: 42 }, error: null }],
};
