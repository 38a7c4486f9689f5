import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsISO8601, IsOptional, IsUUID, Matches } from 'class-validator';
import { TASK_STATUSES, type TaskStatus } from '@platform/messaging';
import { PageQueryDto } from '@platform/service';

export class ListTasksQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: TASK_STATUSES, default: 'pending', example: 'pending', description: 'Only tasks in this state (default pending)' })
  @IsOptional()
  @IsIn(TASK_STATUSES)
  status: TaskStatus = 'pending';

  @ApiPropertyOptional({
    example: 'me',
    description: 'Only tasks assigned to this user, team or customer id; `me` for the calling user',
  })
  @IsOptional()
  @Matches(/^(me|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$/, { message: 'must be a UUID or me' })
  assignee?: string;

  @ApiPropertyOptional({ format: 'uuid', example: '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e', description: 'Only tasks of this workflow' })
  @IsOptional()
  @IsUUID()
  workflow_id?: string;

  @ApiPropertyOptional({ format: 'uuid', example: '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8e03', description: 'Only tasks of this execution' })
  @IsOptional()
  @IsUUID()
  execution_id?: string;

  @ApiPropertyOptional({
    format: 'uuid',
    example: '01937b90-0000-7cc1-9f3e-5b1a2c3d4e5f',
    description: "Only the approval tasks of this AI agent run (its tool calls that need a person's approval)",
  })
  @IsOptional()
  @IsUUID()
  agent_run_id?: string;

  @ApiPropertyOptional({ format: 'date-time', example: '2026-11-24T00:00:00.000Z', description: 'Only tasks due before this time' })
  @IsOptional()
  @IsISO8601()
  due_before?: string;
}
