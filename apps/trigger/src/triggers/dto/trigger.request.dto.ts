import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsInt, IsISO8601, IsOptional, IsString, IsUUID, Max, MaxLength, Min, MinLength, ValidateIf } from 'class-validator';
import { IsNestedObject } from '@platform/service';

export const TRIGGER_KINDS = ['schedule', 'event', 'webhook'] as const;
export type TriggerKind = (typeof TRIGGER_KINDS)[number];
export const MISFIRE_POLICIES = ['fire_once', 'skip'] as const;
export type MisfirePolicy = (typeof MISFIRE_POLICIES)[number];
export const EVENT_TYPES = [
  'run.execution.succeeded',
  'run.execution.failed',
  'run.execution.cancelled',
  'run.execution.timed_out',
  'run.execution.started',
  'storage.file.uploaded',
  'task.task.created',
  'task.task.assigned',
  'task.task.completed',
  'task.task.expired',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export class ScheduleDto {
  @ApiPropertyOptional({ example: '*/5 * * * *', description: '5 fields, or 6 with seconds first; exactly one of cron and interval_seconds' })
  @ValidateIf((o: ScheduleDto) => o.interval_seconds === undefined || o.cron !== undefined)
  @IsString()
  @MaxLength(200)
  cron?: string;

  @ApiPropertyOptional({ example: 60, minimum: 1 })
  @ValidateIf((o: ScheduleDto) => o.cron === undefined || o.interval_seconds !== undefined)
  @IsInt()
  @Min(1)
  @Max(366 * 86_400)
  interval_seconds?: number;

  @ApiPropertyOptional({ example: 'Europe/Paris', default: 'UTC' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  timezone?: string;

  @ApiPropertyOptional({ format: 'date-time', example: '2026-11-22T00:00:00.000Z', description: 'No tick before this time' })
  @IsOptional()
  @IsISO8601()
  start_at?: string;

  @ApiPropertyOptional({ format: 'date-time', example: '2026-12-31T23:59:59.000Z', description: 'No tick after this time' })
  @IsOptional()
  @IsISO8601()
  end_at?: string;

  @ApiPropertyOptional({
    enum: MISFIRE_POLICIES,
    default: 'fire_once',
    example: 'fire_once',
    description: 'Ticks missed while no replica ran: fire the latest once, or skip them',
  })
  @IsOptional()
  @IsIn(MISFIRE_POLICIES)
  misfire?: MisfirePolicy;
}

export class EventDto {
  @ApiProperty({ enum: EVENT_TYPES, example: 'run.execution.failed' })
  @IsIn(EVENT_TYPES)
  type!: EventType;

  @ApiPropertyOptional({
    example: "workflow_id = '0194…'",
    description: 'JSONata over the event (the same document `input` sees: the event, with `trigger` beside it); the trigger fires when it is true',
  })
  @IsOptional()
  @IsString()
  @MaxLength(4000)
  filter?: string;
}

class TriggerFieldsDto {
  @ApiPropertyOptional({
    anyOf: [{ type: 'object', additionalProperties: true, nullable: true }, { type: 'string' }],
    description:
      "The run input: a literal object, or a JSONata expression (string) over the firing: `{ trigger, scheduled_for, fired_at }` for a tick, for an event the document its filter sees (the event's fields with `trigger` beside them, and the event again as `event` for expressions written against `{ trigger, event }`), `{ trigger, request }` for a webhook delivery (no input: a webhook trigger gets the request itself, an event trigger that document). null clears it",
    example: { report: 'daily' },
  })
  @IsOptional()
  input?: Record<string, unknown> | string;

  @ApiPropertyOptional({ type: ScheduleDto, description: 'Schedule triggers: when to fire', example: { cron: '0 2 * * *', timezone: 'Europe/Paris' } })
  @IsOptional()
  @IsNestedObject(() => ScheduleDto)
  schedule?: ScheduleDto;

  @ApiPropertyOptional({ type: EventDto, description: 'Event triggers: the platform event that fires it', example: { type: 'run.execution.failed' } })
  @IsOptional()
  @IsNestedObject(() => EventDto)
  event?: EventDto;

  @ApiPropertyOptional({
    format: 'uuid',
    example: '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8e04',
    description: "Webhook triggers: the caller's webhook whose accepted deliveries fire it (an unknown or foreign id is a 400)",
  })
  @IsOptional()
  @IsUUID()
  webhook_id?: string;

  @ApiPropertyOptional({ default: true, example: true })
  @IsOptional()
  @IsBoolean()
  enabled?: boolean;
}

export class CreateTriggerRequestDto extends TriggerFieldsDto {
  @ApiProperty({ example: 'nightly-report' })
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name!: string;

  @ApiProperty({
    format: 'uuid',
    example: '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e',
    description: "The workflow each firing runs: the caller's (an unknown or another tenant's id is a 400 naming workflow_id)",
  })
  @IsUUID()
  workflow_id!: string;

  @ApiProperty({ enum: TRIGGER_KINDS, example: 'schedule' })
  @IsIn(TRIGGER_KINDS)
  type!: TriggerKind;
}

export class UpdateTriggerRequestDto extends TriggerFieldsDto {
  @ApiPropertyOptional({ example: 'nightly-report' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name?: string;

  @ApiPropertyOptional({ format: 'uuid', example: '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e' })
  @IsOptional()
  @IsUUID()
  workflow_id?: string;
}
