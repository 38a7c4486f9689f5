import type { TriggerFiringStatus } from '@platform/messaging';
import type { EventType, MisfirePolicy, TriggerKind } from './dto/trigger.request.dto.js';
import type { ScheduleSpec } from './schedule.js';

export interface TriggerRow {
  tenant_id: string;
  environment_id: string;
  scope_id: string | null;
  id: string;
  name: string;
  workflow_id: string;
  type: TriggerKind;
  enabled: boolean;
  input: Record<string, unknown> | string | null;
  cron: string | null;
  interval_seconds: number | null;
  timezone: string | null;
  start_at: Date | null;
  end_at: Date | null;
  misfire: MisfirePolicy | null;
  event_type: EventType | null;
  event_filter: string | null;
  webhook_id: string | null;
  next_fire_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface TriggerExecutionRow {
  tenant_id: string;
  environment_id: string;
  scope_id: string | null;
  id: string;
  trigger_id: string;
  workflow_id: string;
  fire_key: string;
  scheduled_for: Date;
  fired_at: Date;
  run_input: Record<string, unknown> | null;
  run_id: string | null;
  status: TriggerFiringStatus;
  error: string | null;
}

export function scheduleOf(row: Pick<TriggerRow, 'cron' | 'interval_seconds' | 'timezone' | 'start_at' | 'end_at' | 'created_at'>): ScheduleSpec {
  return {
    cron: row.cron,
    intervalSeconds: row.interval_seconds,
    timezone: row.timezone ?? 'UTC',
    startAt: row.start_at,
    endAt: row.end_at,
    anchor: row.created_at,
  };
}

export interface TriggerResponse {
  id: string;
  name: string;
  workflow_id: string;
  type: TriggerKind;
  status: 'enabled' | 'disabled';
  input: Record<string, unknown> | string | null;
  schedule: {
    cron: string | null;
    interval_seconds: number | null;
    timezone: string;
    start_at: string | null;
    end_at: string | null;
    misfire: MisfirePolicy;
  } | null;
  event: { type: EventType; filter: string | null } | null;
  webhook_id: string | null;
  next_fire_at: string | null;
  created_at: string;
  updated_at: string;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toTriggerResponse(row: TriggerRow): TriggerResponse {
  return {
    id: row.id,
    name: row.name,
    workflow_id: row.workflow_id,
    type: row.type,
    status: row.enabled ? 'enabled' : 'disabled',
    input: row.input,
    schedule:
      row.type === 'schedule'
        ? {
            cron: row.cron,
            interval_seconds: row.interval_seconds,
            timezone: row.timezone ?? 'UTC',
            start_at: iso(row.start_at),
            end_at: iso(row.end_at),
            misfire: row.misfire ?? 'fire_once',
          }
        : null,
    event: row.type === 'event' && row.event_type ? { type: row.event_type, filter: row.event_filter } : null,
    webhook_id: row.webhook_id,
    next_fire_at: row.enabled ? iso(row.next_fire_at) : null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export interface TriggerExecutionResponse {
  id: string;
  trigger_id: string;
  scheduled_for: string;
  fired_at: string;
  run_id: string | null;
  status: TriggerFiringStatus;
  error: string | null;
}

export function toExecutionResponse(row: TriggerExecutionRow): TriggerExecutionResponse {
  return {
    id: row.id,
    trigger_id: row.trigger_id,
    scheduled_for: row.scheduled_for.toISOString(),
    fired_at: row.fired_at.toISOString(),
    run_id: row.run_id,
    status: row.status,
    error: row.error,
  };
}
