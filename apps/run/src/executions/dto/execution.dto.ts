import { ApiProperty, ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';
import { IsDateString, IsIn, IsObject, IsOptional, IsString, IsUUID, Length } from 'class-validator';
import { EXECUTION_STATUSES, type ExecutionStatus } from '@platform/messaging';
import { PageQueryDto, ANY_JSON_SCHEMA } from '@platform/service';

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
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, example: { x: 21 }, description: 'Free-form input; the workflow sees it as `input`' })
  @IsOptional()
  @IsObject()
  input?: Record<string, unknown>;
}

export class ListExecutionsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ format: 'uuid', example: '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9f', description: 'Executions of this workflow only' })
  @IsOptional()
  @IsUUID()
  workflow_id?: string;

  @ApiPropertyOptional({
    enum: EXECUTION_STATUSES,
    example: 'failed',
    description: 'Executions in this status only',
  })
  @IsOptional()
  @IsIn(EXECUTION_STATUSES)
  status?: ExecutionStatus;

  @ApiPropertyOptional({
    enum: ['api', 'schedule', 'event', 'webhook', 'portal', 'subworkflow'],
    example: 'api',
    description: 'Executions started this way only',
  })
  @IsOptional()
  @IsIn(['api', 'schedule', 'event', 'webhook', 'portal', 'subworkflow'])
  trigger_type?: string;

  @ApiPropertyOptional({ format: 'date-time', example: '2026-11-01T00:00:00Z', description: 'Created at or after this time (ISO 8601)' })
  @IsOptional()
  @IsDateString({ strict: true })
  created_after?: string;

  @ApiPropertyOptional({ format: 'date-time', example: '2026-12-01T00:00:00Z', description: 'Created before this time (ISO 8601)' })
  @IsOptional()
  @IsDateString({ strict: true })
  created_before?: string;
}

export class ListLogsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: ['debug', 'info', 'warn', 'error'], example: 'error', description: 'Lines of this level only' })
  @IsOptional()
  @IsIn(['debug', 'info', 'warn', 'error'])
  level?: string;

  @ApiPropertyOptional({ example: 'fetch', description: 'Lines of this step only' })
  @IsOptional()
  @IsString()
  @Length(1, 64)
  step_id?: string;
}

export const EXECUTION_EXAMPLE = {
  id: '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e',
  workflow_id: '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9f',
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
  steps: [
    {
      id: 'double',
      path: 'double',
      type: 'transform',
      status: 'succeeded',
      attempt: 1,
      started_at: '2026-11-22T10:00:00.011Z',
      finished_at: '2026-11-22T10:00:00.012Z',
      input: { value: 42 },
      output: { value: 42 },
      error: null,
    },
  ],
};

export class RunAcceptedResponseDto {
  @ApiProperty({ format: 'uuid', description: 'The execution id: poll GET /run/executions/{run_id}', example: '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e' })
  run_id!: string;

  @ApiProperty({
    enum: EXECUTION_STATUSES,
    example: 'queued',
    description: '`queued` for a new run; for a repeated Idempotency-Key, the current status of the first run',
  })
  status!: string;
}

/** Why an execution or a step failed; inline (not a $ref) so that null validates against it. */
const EXECUTION_ERROR: ApiPropertyOptions = {
  type: 'object',
  nullable: true,
  required: ['code', 'message', 'step_id'],
  properties: {
    code: { type: 'string', example: 'http_error', description: 'A stable code: expression_error, http_error, timeout, cancelled, …' },
    message: { type: 'string', example: 'POST https://hooks.example.com/big answered 502' },
    step_id: { type: 'string', nullable: true, example: 'notify', description: 'The step that failed (null for the execution as a whole)' },
  },
};

interface ExecutionError {
  code: string;
  message: string;
  step_id: string | null;
}

export class ExecutionTriggerDto {
  @ApiProperty({ enum: ['api', 'schedule', 'event', 'webhook', 'portal', 'subworkflow'], example: 'api' })
  type!: string;

  @ApiProperty({
    type: String,
    nullable: true,
    example: null,
    description: 'The trigger, webhook or parent execution that started the run (null for API starts)',
  })
  id!: string | null;
}

export class ExecutionStepDto {
  @ApiProperty({ example: 'double', description: 'The step id of the definition' })
  id!: string;

  @ApiProperty({ example: 'double', description: 'Where the step ran: inside loops and branches the path names the iteration (`each[2].fetch`)' })
  path!: string;

  @ApiProperty({ example: 'transform' })
  type!: string;

  @ApiProperty({ enum: ['running', 'waiting', 'succeeded', 'failed', 'skipped', 'cancelled'], example: 'succeeded' })
  status!: string;

  @ApiProperty({ type: 'integer', example: 1, description: 'The attempt shown (the latest)' })
  attempt!: number;

  @ApiProperty({ format: 'date-time', example: '2026-11-22T10:00:00.011Z' })
  started_at!: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, example: '2026-11-22T10:00:00.012Z' })
  finished_at!: string | null;

  @ApiProperty({ ...ANY_JSON_SCHEMA, description: 'The evaluated input (secrets redacted)', example: { value: 42 } })
  input!: unknown;

  @ApiProperty({ ...ANY_JSON_SCHEMA, description: 'What the step produced', example: { value: 42 } })
  output!: unknown;

  @ApiProperty({ ...EXECUTION_ERROR, description: 'Why the step failed' })
  error!: ExecutionError | null;
}

export class ExecutionSummaryDto {
  @ApiProperty({ format: 'uuid', example: '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e' })
  id!: string;

  @ApiProperty({ format: 'uuid', example: '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9f' })
  workflow_id!: string;

  @ApiProperty({ type: 'integer', example: 1, description: 'The workflow version this execution runs' })
  workflow_version!: number;

  @ApiProperty({ enum: EXECUTION_STATUSES, example: 'succeeded' })
  status!: string;

  @ApiProperty({ type: 'object', additionalProperties: true, example: { x: 21 } })
  input!: Record<string, unknown>;

  @ApiProperty({ ...ANY_JSON_SCHEMA, description: "The workflow's output once it succeeded", example: { value: 42 } })
  output!: unknown;

  @ApiProperty({ ...EXECUTION_ERROR, description: 'Why it failed, timed out or was cancelled' })
  error!: ExecutionError | null;

  @ApiProperty({ type: ExecutionTriggerDto })
  trigger!: ExecutionTriggerDto;

  @ApiProperty({ type: String, format: 'uuid', nullable: true, example: null, description: 'The customer scope it runs in' })
  customer_id!: string | null;

  @ApiProperty({ type: String, format: 'uuid', nullable: true, example: null, description: 'Set for a subworkflow run' })
  parent_execution_id!: string | null;

  @ApiProperty({ format: 'date-time', example: '2026-11-22T10:00:00.000Z' })
  created_at!: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, example: '2026-11-22T10:00:00.010Z' })
  started_at!: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, example: '2026-11-22T10:00:00.020Z' })
  finished_at!: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, example: null, description: 'When a waiting execution (delay, retry back-off) resumes' })
  wake_at!: string | null;
}

export class ExecutionResponseDto extends ExecutionSummaryDto {
  @ApiProperty({ type: [ExecutionStepDto], description: 'Each step path that ran, its latest attempt, in the order steps started' })
  steps!: ExecutionStepDto[];
}

export class ExecutionLogDto {
  @ApiProperty({ format: 'uuid', example: '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8da0' })
  id!: string;

  @ApiProperty({ type: String, nullable: true, example: 'double' })
  step_id!: string | null;

  @ApiProperty({ enum: ['debug', 'info', 'warn', 'error'], example: 'info' })
  level!: string;

  @ApiProperty({ example: 'transform double succeeded' })
  message!: string;

  @ApiProperty({ type: 'object', additionalProperties: true, nullable: true, example: { attempt: 1, ms: 1 } })
  data!: Record<string, unknown> | null;

  @ApiProperty({ format: 'date-time', example: '2026-11-22T10:00:00.012Z' })
  created_at!: string;
}
