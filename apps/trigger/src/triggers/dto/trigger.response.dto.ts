import { ApiProperty, type ApiPropertyOptions } from '@nestjs/swagger';
import { TRIGGER_FIRING_STATUSES } from '@platform/messaging';
import type { TriggerExecutionResponse, TriggerResponse } from '../trigger.record.js';
import { EVENT_TYPES, MISFIRE_POLICIES, TRIGGER_KINDS } from './trigger.request.dto.js';

/** A schedule trigger as the routes answer it. */
export const TRIGGER_EXAMPLE: TriggerResponse = {
  id: '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8e01',
  name: 'nightly-report',
  workflow_id: '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e',
  type: 'schedule',
  status: 'enabled',
  input: { report: 'daily' },
  schedule: { cron: '0 2 * * *', interval_seconds: null, timezone: 'Europe/Paris', start_at: null, end_at: null, misfire: 'fire_once' },
  event: null,
  webhook_id: null,
  next_fire_at: '2026-11-23T01:00:00.000Z',
  created_at: '2026-11-22T10:00:00.000Z',
  updated_at: '2026-11-22T10:00:00.000Z',
};

export const TRIGGER_EXECUTION_EXAMPLE: TriggerExecutionResponse = {
  id: '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8e02',
  trigger_id: TRIGGER_EXAMPLE.id,
  scheduled_for: '2026-11-22T01:00:00.000Z',
  fired_at: '2026-11-22T01:00:00.120Z',
  run_id: '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8e03',
  status: 'started',
  error: null,
};

/** The run input: an object, a JSONata expression, or null (an empty input). */
const RUN_INPUT: ApiPropertyOptions = {
  anyOf: [
    { type: 'object', additionalProperties: true, nullable: true },
    { type: 'string', nullable: true },
  ],
};

/** Inline (not a $ref) so that null validates against it. */
const SCHEDULE: ApiPropertyOptions = {
  type: 'object',
  nullable: true,
  description: 'The schedule (schedule triggers; null for the others)',
  required: ['cron', 'interval_seconds', 'timezone', 'start_at', 'end_at', 'misfire'],
  properties: {
    cron: { type: 'string', nullable: true, example: '0 2 * * *', description: 'The cron expression (null for an interval)' },
    interval_seconds: { type: 'integer', nullable: true, example: 3600, description: 'The interval (null for a cron expression)' },
    timezone: { type: 'string', example: 'Europe/Paris' },
    start_at: { type: 'string', format: 'date-time', nullable: true, example: '2026-11-22T00:00:00.000Z' },
    end_at: { type: 'string', format: 'date-time', nullable: true, example: '2026-12-31T23:59:59.000Z' },
    misfire: { type: 'string', enum: [...MISFIRE_POLICIES], example: 'fire_once' },
  },
};

const EVENT: ApiPropertyOptions = {
  type: 'object',
  nullable: true,
  description: 'The platform event that fires it (event triggers; null for the others)',
  required: ['type', 'filter'],
  properties: {
    type: { type: 'string', enum: [...EVENT_TYPES], example: 'run.execution.failed' },
    filter: { type: 'string', nullable: true, example: "workflow_id = '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e'", description: 'JSONata over the event' },
  },
};

export class TriggerResponseDto {
  @ApiProperty({ format: 'uuid', example: TRIGGER_EXAMPLE.id })
  id!: string;

  @ApiProperty({ example: 'nightly-report' })
  name!: string;

  @ApiProperty({ format: 'uuid', example: TRIGGER_EXAMPLE.workflow_id, description: 'The workflow each firing runs' })
  workflow_id!: string;

  @ApiProperty({ enum: TRIGGER_KINDS, example: 'schedule' })
  type!: string;

  @ApiProperty({ enum: ['enabled', 'disabled'], example: 'enabled' })
  status!: string;

  @ApiProperty({
    ...RUN_INPUT,
    description: 'The run input: a literal object, or a JSONata expression over the tick or event; null for none',
    example: { report: 'daily' },
  })
  input!: Record<string, unknown> | string | null;

  @ApiProperty({ ...SCHEDULE, example: TRIGGER_EXAMPLE.schedule })
  schedule!: TriggerResponse['schedule'];

  @ApiProperty({ ...EVENT, example: { type: 'run.execution.failed', filter: null } })
  event!: TriggerResponse['event'];

  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    example: '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8e04',
    description: 'The webhook that fires it (webhook triggers; null for the others)',
  })
  webhook_id!: string | null;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    example: '2026-11-23T01:00:00.000Z',
    description: 'The next tick of an enabled schedule; null otherwise',
  })
  next_fire_at!: string | null;

  @ApiProperty({ format: 'date-time', example: '2026-11-22T10:00:00.000Z' })
  created_at!: string;

  @ApiProperty({ format: 'date-time', example: '2026-11-22T10:00:00.000Z' })
  updated_at!: string;
}

export class TriggerExecutionResponseDto {
  @ApiProperty({ format: 'uuid', example: TRIGGER_EXECUTION_EXAMPLE.id })
  id!: string;

  @ApiProperty({ format: 'uuid', example: TRIGGER_EXAMPLE.id })
  trigger_id!: string;

  @ApiProperty({ format: 'date-time', example: '2026-11-22T01:00:00.000Z', description: 'The tick (or event time) it fired for' })
  scheduled_for!: string;

  @ApiProperty({ format: 'date-time', example: '2026-11-22T01:00:00.120Z' })
  fired_at!: string;

  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    example: TRIGGER_EXECUTION_EXAMPLE.run_id,
    description: 'The run it started (null when none was started)',
  })
  run_id!: string | null;

  @ApiProperty({ enum: TRIGGER_FIRING_STATUSES, example: 'started' })
  status!: string;

  @ApiProperty({ type: String, nullable: true, example: 'workflow is disabled', description: 'Why it was skipped or failed' })
  error!: string | null;
}
