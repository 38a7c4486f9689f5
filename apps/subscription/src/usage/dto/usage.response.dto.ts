import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { USAGE_METRICS } from '@platform/messaging';

export const USAGE_EXAMPLE = {
  plan: 'free',
  period_start: '2026-11-01T00:00:00.000Z',
  period_end: '2026-12-01T00:00:00.000Z',
  customer_id: null,
  metrics: [
    { metric: 'runs', used: 412, included: 1000, limit: 1000, remaining: 588, sandbox_used: 1530 },
    { metric: 'storage_bytes', used: 5242880, included: 1073741824, limit: 1073741824, remaining: 1068498944, sandbox_used: 0 },
  ],
  daily: [{ date: '2026-11-24', metric: 'runs', quantity: 37 }],
};

export class MetricUsageDto {
  @ApiProperty({ enum: USAGE_METRICS, example: 'runs' })
  metric!: string;

  @ApiProperty({
    example: 412,
    description: 'Billable use in the period (live keys, users, schedules); for storage_bytes, active_workflows and seats the level reached',
  })
  used!: number;

  @ApiProperty({ example: 1000, description: "What the plan's base price includes" })
  included!: number;

  @ApiProperty({
    example: 1000,
    nullable: true,
    type: Number,
    description: 'Hard cap: live keys get 429 past it; null when usage beyond `included` is billed instead',
  })
  limit!: number | null;

  @ApiProperty({ example: 588, nullable: true, type: Number, description: 'Left before the cap (never negative); null without a cap' })
  remaining!: number | null;

  @ApiProperty({ example: 1530, description: 'Use by test keys (sandbox): shown, never billed or held against quotas' })
  sandbox_used!: number;
}

export class DailyUsageDto {
  @ApiProperty({ example: '2026-11-24', description: 'UTC day' })
  date!: string;

  @ApiProperty({ enum: USAGE_METRICS, example: 'runs' })
  metric!: string;

  @ApiProperty({ example: 37, description: 'Billable quantity recorded that day (a change in level for gauges)' })
  quantity!: number;
}

export class UsageResponseDto {
  @ApiProperty({ example: 'free' })
  plan!: string;

  @ApiProperty({ format: 'date-time', example: USAGE_EXAMPLE.period_start })
  period_start!: string;

  @ApiProperty({ format: 'date-time', example: USAGE_EXAMPLE.period_end })
  period_end!: string;

  @ApiProperty({ format: 'uuid', nullable: true, type: String, example: null, description: 'The customer the figures are limited to, if any' })
  customer_id!: string | null;

  @ApiProperty({ type: [MetricUsageDto] })
  metrics!: MetricUsageDto[];

  @ApiPropertyOptional({ type: [DailyUsageDto], description: 'With `granularity=day` only' })
  daily?: DailyUsageDto[];
}
