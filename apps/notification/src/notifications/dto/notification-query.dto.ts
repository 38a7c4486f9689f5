import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsISO8601, IsOptional, IsUUID } from 'class-validator';
import { NOTIFICATION_STATUSES, type NotificationStatus } from '@platform/messaging';
import { PageQueryDto } from '@platform/service';

export class NotificationHistoryQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ format: 'uuid', example: '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8f01', description: 'Only notifications of this channel' })
  @IsOptional()
  @IsUUID()
  channel_id?: string;

  @ApiPropertyOptional({ enum: NOTIFICATION_STATUSES, example: 'failed', description: 'Only notifications with this status' })
  @IsOptional()
  @IsIn(NOTIFICATION_STATUSES)
  status?: NotificationStatus;

  @ApiPropertyOptional({ format: 'date-time', example: '2026-11-22T00:00:00.000Z', description: 'Only notifications accepted at or after this time' })
  @IsOptional()
  @IsISO8601()
  from?: string;

  @ApiPropertyOptional({ format: 'date-time', example: '2026-11-23T00:00:00.000Z', description: 'Only notifications accepted before this time' })
  @IsOptional()
  @IsISO8601()
  to?: string;
}
