import { ApiProperty } from '@nestjs/swagger';

export const SUBSCRIPTION_EXAMPLE = {
  id: '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8f01',
  plan: 'pro',
  plan_name: 'Pro',
  status: 'active',
  currency: 'USD',
  period_start: '2026-11-01T00:00:00.000Z',
  period_end: '2026-12-01T00:00:00.000Z',
  created_at: '2026-10-03T09:12:44.120Z',
  updated_at: '2026-11-24T15:40:00.000Z',
};

export class SubscriptionResponseDto {
  @ApiProperty({ format: 'uuid', example: SUBSCRIPTION_EXAMPLE.id })
  id!: string;

  @ApiProperty({ example: 'pro', description: 'Code of the current plan' })
  plan!: string;

  @ApiProperty({ example: 'Pro' })
  plan_name!: string;

  @ApiProperty({ enum: ['active', 'cancelled'], example: 'active' })
  status!: string;

  @ApiProperty({ example: 'USD', description: 'ISO 4217 currency of the plan; amounts are in its minor unit' })
  currency!: string;

  @ApiProperty({ format: 'date-time', example: SUBSCRIPTION_EXAMPLE.period_start, description: 'Start of the current billing period' })
  period_start!: string;

  @ApiProperty({ format: 'date-time', example: SUBSCRIPTION_EXAMPLE.period_end, description: 'End of the current billing period (its invoice is issued then)' })
  period_end!: string;

  @ApiProperty({ format: 'date-time', example: SUBSCRIPTION_EXAMPLE.created_at })
  created_at!: string;

  @ApiProperty({ format: 'date-time', example: SUBSCRIPTION_EXAMPLE.updated_at })
  updated_at!: string;
}
