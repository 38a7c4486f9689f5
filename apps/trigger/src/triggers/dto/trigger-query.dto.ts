import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsUUID } from 'class-validator';
import { TRIGGER_FIRING_STATUSES, type TriggerFiringStatus } from '@platform/messaging';
import { PageQueryDto } from '@platform/service';
import { TRIGGER_KINDS, type TriggerKind } from './trigger.request.dto.js';

export class ListTriggersQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: TRIGGER_KINDS, example: 'schedule', description: 'Only triggers of this type' })
  @IsOptional()
  @IsIn(TRIGGER_KINDS)
  type?: TriggerKind;

  @ApiPropertyOptional({ enum: ['enabled', 'disabled'], example: 'enabled', description: 'Only enabled or only disabled triggers' })
  @IsOptional()
  @IsIn(['enabled', 'disabled'])
  status?: 'enabled' | 'disabled';

  @ApiPropertyOptional({ format: 'uuid', example: '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e', description: 'Only triggers of this workflow' })
  @IsOptional()
  @IsUUID()
  workflow_id?: string;
}

export class ListTriggerExecutionsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: TRIGGER_FIRING_STATUSES, example: 'failed', description: 'Only executions with this status' })
  @IsOptional()
  @IsIn(TRIGGER_FIRING_STATUSES)
  status?: TriggerFiringStatus;
}
