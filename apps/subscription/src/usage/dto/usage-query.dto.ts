import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsUUID } from 'class-validator';

export class UsageQueryDto {
  @ApiPropertyOptional({ enum: ['period', 'day'], example: 'day', description: '`day` adds a daily series of the billable quantities to the period totals' })
  @IsOptional()
  @IsIn(['period', 'day'])
  granularity?: 'period' | 'day';

  @ApiPropertyOptional({
    format: 'uuid',
    example: '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8f01',
    description: "Only this customer's usage (to rebill it); a customer key always sees only its own",
  })
  @IsOptional()
  @IsUUID()
  customer_id?: string;
}
