import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsUUID } from 'class-validator';
import { PageQueryDto } from '@platform/service';
import { TRIGGER_KINDS, type TriggerKind } from './trigger.request.dto.js';

export class ListTriggersQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: TRIGGER_KINDS })
  @IsOptional()
  @IsIn(TRIGGER_KINDS)
  type?: TriggerKind;

  @ApiPropertyOptional({ enum: ['enabled', 'disabled'] })
  @IsOptional()
  @IsIn(['enabled', 'disabled'])
  status?: 'enabled' | 'disabled';

  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsUUID()
  workflow_id?: string;
}

export class ListTriggerExecutionsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: ['pending', 'started', 'skipped', 'failed'] })
  @IsOptional()
  @IsIn(['pending', 'started', 'skipped', 'failed'])
  status?: string;
}
