import { ApiProperty } from '@nestjs/swagger';
import { IsUUID } from 'class-validator';

export class RetryBillingRequestDto {
  @ApiProperty({
    format: 'uuid',
    example: '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8f01',
    description: 'The tenant whose ended period the billing pass could not close',
  })
  @IsUUID()
  tenant_id!: string;
}
