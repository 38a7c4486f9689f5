import { ApiProperty } from '@nestjs/swagger';
import { NOTIFICATION_ATTEMPT_RESULTS, NOTIFICATION_STATUSES } from '@platform/messaging';
import { CHANNEL_KINDS } from '../../channels/dto/channel.request.dto.js';
import type { NotificationResponse } from '../notification.record.js';

const NOTIFICATION_ID = '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8f10';

export const QUEUED_EXAMPLE = { id: NOTIFICATION_ID, status: 'queued' };

export const NOTIFICATION_EXAMPLE: NotificationResponse = {
  id: NOTIFICATION_ID,
  status: 'delivered',
  kind: 'slack',
  channel_id: '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8f01',
  source: 'api',
  to: null,
  subject: 'Deploy 1.4.2 finished',
  template: null,
  idempotency_key: 'deploy-1.4.2',
  customer_id: null,
  attempts: [
    { attempt: 1, at: '2026-11-22T10:00:00.120Z', outcome: 'retry', status_code: 429, error: 'HTTP 429: rate_limited', retry_at: '2026-11-22T10:00:02.120Z' },
    { attempt: 2, at: '2026-11-22T10:00:02.200Z', outcome: 'delivered', status_code: 200, error: null },
  ],
  created_at: '2026-11-22T10:00:00.100Z',
  updated_at: '2026-11-22T10:00:02.200Z',
  delivered_at: '2026-11-22T10:00:02.200Z',
};

export class NotificationQueuedResponseDto {
  @ApiProperty({ format: 'uuid', example: NOTIFICATION_ID })
  id!: string;

  @ApiProperty({ enum: NOTIFICATION_STATUSES, example: 'queued', description: 'queued when accepted; a repeated idempotency key answers the current status' })
  status!: string;
}

export class AttemptResponseDto {
  @ApiProperty({ type: 'integer', example: 1 })
  attempt!: number;

  @ApiProperty({ format: 'date-time', example: '2026-11-22T10:00:00.120Z' })
  at!: string;

  @ApiProperty({ enum: NOTIFICATION_ATTEMPT_RESULTS, example: 'retry', description: 'retry: a transient failure, tried again at retry_at' })
  outcome!: string;

  @ApiProperty({ type: 'integer', nullable: true, example: 429, description: 'HTTP status or SMTP reply code' })
  status_code!: number | null;

  @ApiProperty({ type: String, nullable: true, example: 'HTTP 429: rate_limited' })
  error!: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, required: false, example: '2026-11-22T10:00:02.120Z' })
  retry_at?: string | null;
}

export class NotificationResponseDto {
  @ApiProperty({ format: 'uuid', example: NOTIFICATION_ID })
  id!: string;

  @ApiProperty({ enum: NOTIFICATION_STATUSES, example: 'delivered' })
  status!: string;

  @ApiProperty({ enum: CHANNEL_KINDS, example: 'slack' })
  kind!: string;

  @ApiProperty({ type: String, format: 'uuid', nullable: true, example: NOTIFICATION_EXAMPLE.channel_id })
  channel_id!: string | null;

  @ApiProperty({ enum: ['api', 'workflow', 'platform'], example: 'api', description: 'Who sent it: the API, a workflow step, or the platform (alerts)' })
  source!: string;

  @ApiProperty({ type: [String], nullable: true, example: null, description: 'email: the recipients' })
  to!: string[] | null;

  @ApiProperty({ type: String, nullable: true, example: 'Deploy 1.4.2 finished' })
  subject!: string | null;

  @ApiProperty({ type: String, nullable: true, example: null })
  template!: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'deploy-1.4.2' })
  idempotency_key!: string | null;

  @ApiProperty({ type: String, format: 'uuid', nullable: true, example: null })
  customer_id!: string | null;

  @ApiProperty({ type: [AttemptResponseDto], example: NOTIFICATION_EXAMPLE.attempts, description: 'Every attempt, oldest first' })
  attempts!: AttemptResponseDto[];

  @ApiProperty({ format: 'date-time', example: NOTIFICATION_EXAMPLE.created_at })
  created_at!: string;

  @ApiProperty({ format: 'date-time', example: NOTIFICATION_EXAMPLE.updated_at })
  updated_at!: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, example: NOTIFICATION_EXAMPLE.delivered_at })
  delivered_at!: string | null;
}
