import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsArray, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { MaxItems } from '@platform/service';
import { STORAGE_LIMITS } from '@platform/messaging';

export const MAX_QUERY_LENGTH = STORAGE_LIMITS.maxQueryLength;
export const MAX_PARAMS = STORAGE_LIMITS.maxQueryParams;

export class DataQueryRequestDto {
  @ApiProperty({
    example: 'select status, count(*) as orders, sum(amount) as total from orders where paid_at >= $1 group by status order by total desc',
    description:
      'One SELECT over your data tables (by name) and the views workflows, executions, tasks. Joins, aggregates, CTEs and window functions are welcome.',
  })
  @IsString()
  @MinLength(1)
  @MaxLength(MAX_QUERY_LENGTH)
  query!: string;

  @ApiPropertyOptional({ example: ['2026-11-01T00:00:00Z'], description: 'Values of $1…$n, bound, never interpolated.', type: 'array', items: {} })
  @IsOptional()
  @IsArray()
  @MaxItems(MAX_PARAMS)
  params?: unknown[];
}

export const QUERY_ANSWER_EXAMPLE = {
  columns: [
    { name: 'status', type: 'text' },
    { name: 'orders', type: 'number' },
    { name: 'total', type: 'number' },
  ],
  rows: [
    { status: 'paid', orders: 812, total: 104233.5 },
    { status: 'refunded', orders: 17, total: 1830 },
  ],
  row_count: 2,
  truncated: false,
};
