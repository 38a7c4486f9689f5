import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsISO8601, IsOptional, IsUUID } from 'class-validator';
import { WEBHOOK_DELIVERY_OUTCOMES, type WebhookDeliveryOutcome } from '@platform/messaging';
import { PageQueryDto } from '@platform/service';

export class ListWebhooksQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ format: 'uuid', example: '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e', description: 'Only webhooks of this workflow' })
  @IsOptional()
  @IsUUID()
  workflow_id?: string;

  @ApiPropertyOptional({ type: Boolean, example: true, description: 'Only enabled (true) or only disabled (false) webhooks' })
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (value === 'true' ? true : value === 'false' ? false : value))
  @IsBoolean()
  enabled?: boolean;
}

export class ListDeliveriesQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: WEBHOOK_DELIVERY_OUTCOMES, example: 'rejected', description: 'Only deliveries with this outcome' })
  @IsOptional()
  @IsIn(WEBHOOK_DELIVERY_OUTCOMES)
  outcome?: WebhookDeliveryOutcome;

  @ApiPropertyOptional({ format: 'date-time', example: '2026-11-22T00:00:00.000Z', description: 'Only deliveries received at or after this time' })
  @IsOptional()
  @IsISO8601()
  from?: string;

  @ApiPropertyOptional({ format: 'date-time', example: '2026-11-23T00:00:00.000Z', description: 'Only deliveries received before this time' })
  @IsOptional()
  @IsISO8601()
  to?: string;
}
