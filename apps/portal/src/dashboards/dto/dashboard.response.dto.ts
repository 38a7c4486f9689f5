import { ApiProperty } from '@nestjs/swagger';
import type { WidgetType } from '../widgets.js';

export interface DashboardResponse {
  id: string;
  name: string;
  description: string | null;
  widgets: { id: string; type: WidgetType; title: string; limit: number }[];
  created_at: string;
  updated_at: string;
}

export interface DashboardDataResponse {
  dashboard_id: string;
  from: string;
  to: string;
  customer_id: string | null;
  widgets: { id: string; type: WidgetType; title: string; data: unknown }[];
}

export const DASHBOARD_EXAMPLE: DashboardResponse = {
  id: '0194f1c2-0000-7000-8000-00000000d001',
  name: 'Operations',
  description: null,
  widgets: [
    { id: 'w1', type: 'executions_per_day', title: 'Executions per day', limit: 5 },
    { id: 'w2', type: 'failure_rate', title: 'Failure rate', limit: 5 },
  ],
  created_at: '2026-11-24T10:00:00.000Z',
  updated_at: '2026-11-24T10:00:00.000Z',
};

export const DATA_EXAMPLE: DashboardDataResponse = {
  dashboard_id: DASHBOARD_EXAMPLE.id,
  from: '2026-10-25T10:00:00.000Z',
  to: '2026-11-24T10:00:00.000Z',
  customer_id: null,
  widgets: [
    {
      id: 'w1',
      type: 'executions_per_day',
      title: 'Executions per day',
      data: { total: 3, days: [{ date: '2026-11-24', total: 3, succeeded: 2, failed: 1, queued: 0, running: 0, waiting: 0, cancelled: 0, timed_out: 0 }] },
    },
    { id: 'w2', type: 'failure_rate', title: 'Failure rate', data: { finished: 3, failed: 1, rate: 0.3333 } },
  ],
};

export class DashboardResponseDto {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty()
  name!: string;

  @ApiProperty({ type: String, nullable: true })
  description!: string | null;

  @ApiProperty({
    type: 'array',
    items: { type: 'object', properties: { id: { type: 'string' }, type: { type: 'string' }, title: { type: 'string' }, limit: { type: 'integer' } } },
  })
  widgets!: DashboardResponse['widgets'];

  @ApiProperty({ format: 'date-time' })
  created_at!: string;

  @ApiProperty({ format: 'date-time' })
  updated_at!: string;
}

export class DashboardDataResponseDto {
  @ApiProperty({ format: 'uuid' })
  dashboard_id!: string;

  @ApiProperty({ format: 'date-time' })
  from!: string;

  @ApiProperty({ format: 'date-time' })
  to!: string;

  @ApiProperty({ type: String, format: 'uuid', nullable: true })
  customer_id!: string | null;

  @ApiProperty({
    type: 'array',
    items: {
      type: 'object',
      properties: { id: { type: 'string' }, type: { type: 'string' }, title: { type: 'string' }, data: { type: 'object', additionalProperties: true } },
    },
  })
  widgets!: DashboardDataResponse['widgets'];
}
