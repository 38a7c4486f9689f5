import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMinSize, IsArray, IsIn, IsInt, IsObject, IsOptional, IsUUID, Max, Min } from 'class-validator';
import { MaxItems } from '@platform/service';
import { TASK_DECISIONS, type TaskDecision } from '@platform/messaging';

export class AssignTaskRequestDto {
  @ApiPropertyOptional({ format: 'uuid', example: '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8f01', description: 'A user of the tenant (give user_id or team_id)' })
  @IsOptional()
  @IsUUID()
  user_id?: string;

  @ApiPropertyOptional({ format: 'uuid', example: '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8f02', description: 'A team of the tenant (give user_id or team_id)' })
  @IsOptional()
  @IsUUID()
  team_id?: string;
}

export class CompleteTaskRequestDto {
  @ApiProperty({
    enum: TASK_DECISIONS,
    example: 'approve',
    description: 'approve or reject for an approval; submit or reject for a form (the task lists its own in `decisions`)',
  })
  @IsIn(TASK_DECISIONS)
  decision!: TaskDecision;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    example: { amount: 1200, comment: 'Within budget' },
    description: "The data collected, validated against the task's form (JSON Schema) unless the decision is reject",
  })
  @IsOptional()
  @IsObject()
  data?: Record<string, unknown>;
}

export class CreateTaskLinkRequestDto {
  @ApiPropertyOptional({
    enum: TASK_DECISIONS,
    isArray: true,
    example: ['approve', 'reject'],
    description: "The decisions the link may make (default: every decision of the task); a subset of the task's",
  })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @MaxItems(3)
  @IsIn(TASK_DECISIONS, { each: true })
  decisions?: TaskDecision[];

  @ApiPropertyOptional({ type: 'integer', minimum: 60, maximum: 2_592_000, example: 86400, description: 'Lifetime of the link (default 7 days, at most 30)' })
  @IsOptional()
  @IsInt()
  @Min(60)
  @Max(2_592_000)
  expires_in_seconds?: number;
}
