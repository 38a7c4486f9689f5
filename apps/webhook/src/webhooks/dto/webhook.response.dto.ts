import { ApiProperty, ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';
import type { DeliveryResponse, WebhookResponse } from '../webhook.record.js';
import { RESPONSE_MODES, VERIFICATION_TYPES } from './webhook.request.dto.js';
import { FINISHED_EXECUTION_STATUSES, WEBHOOK_DELIVERY_OUTCOMES } from '@platform/messaging';
import { ANY_JSON_SCHEMA } from '@platform/service';

const WEBHOOK_ID = '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8e04';
const DELIVERY_ID = '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8e05';
const RUN_ID = '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8e03';

/** A webhook as the routes answer it (without its secret, which only create, rotate and a verification change return). */
export const WEBHOOK_EXAMPLE: WebhookResponse = {
  id: WEBHOOK_ID,
  name: 'stripe-events',
  workflow_id: '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e',
  url: `/webhooks/in/${WEBHOOK_ID}`,
  verification: { type: 'hmac' },
  response: { mode: 'async' },
  enabled: true,
  created_at: '2026-11-22T10:00:00.000Z',
  updated_at: '2026-11-22T10:00:00.000Z',
};

export const WEBHOOK_WITH_SECRET_EXAMPLE: WebhookResponse = { ...WEBHOOK_EXAMPLE, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw3J8N7WzqD1A=' };

export const DELIVERY_EXAMPLE: DeliveryResponse = {
  id: DELIVERY_ID,
  webhook_id: WEBHOOK_ID,
  received_at: '2026-11-22T10:00:00.000Z',
  method: 'POST',
  headers: {
    'content-type': 'application/json',
    'webhook-id': 'msg_2KWPBgLlAfxdpx2AI54pPJ85f4W',
    'webhook-timestamp': '1795341600',
    'webhook-signature': '***',
  },
  body: '{"type":"invoice.paid","amount":4200}',
  body_truncated: false,
  content_type: 'application/json',
  outcome: 'accepted',
  reason: null,
  status_code: 202,
  run_id: RUN_ID,
  replay_of: null,
};

export const RECEIVED_EXAMPLE = { run_id: RUN_ID, delivery_id: DELIVERY_ID };

export const REPLAYED_EXAMPLE = { run_id: RUN_ID, delivery_id: '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8e06', replay_of: DELIVERY_ID };

export class WebhookVerificationResponseDto {
  @ApiProperty({ enum: VERIFICATION_TYPES, example: 'hmac', description: 'hmac: Standard Webhooks signatures; token: a static secret in a header; none' })
  type!: string;

  @ApiPropertyOptional({ example: 'X-Webhook-Token', description: 'The header carrying the token (type token only)' })
  header?: string;
}

export class WebhookResponseModeDto {
  @ApiProperty({ enum: RESPONSE_MODES, example: 'async', description: 'async: 202 at once; sync: wait for the run (up to timeout_ms)' })
  mode!: string;

  @ApiPropertyOptional({ type: 'integer', example: 10000, description: 'sync only: how long to wait for the run' })
  timeout_ms?: number;
}

export class WebhookResponseDto {
  @ApiProperty({ format: 'uuid', example: WEBHOOK_ID })
  id!: string;

  @ApiProperty({ example: 'stripe-events' })
  name!: string;

  @ApiProperty({ format: 'uuid', example: WEBHOOK_EXAMPLE.workflow_id, description: 'The workflow each accepted delivery runs' })
  workflow_id!: string;

  @ApiProperty({ example: WEBHOOK_EXAMPLE.url, description: 'The public receiving path, on the gateway' })
  url!: string;

  @ApiProperty({ type: WebhookVerificationResponseDto, example: { type: 'hmac' } })
  verification!: WebhookVerificationResponseDto;

  @ApiProperty({ type: WebhookResponseModeDto, example: { mode: 'async' } })
  response!: WebhookResponseModeDto;

  @ApiProperty({ example: true })
  enabled!: boolean;

  @ApiProperty({ format: 'date-time', example: '2026-11-22T10:00:00.000Z' })
  created_at!: string;

  @ApiProperty({ format: 'date-time', example: '2026-11-22T10:00:00.000Z' })
  updated_at!: string;

  @ApiPropertyOptional({
    example: WEBHOOK_WITH_SECRET_EXAMPLE.secret,
    description: 'The signing secret (hmac, `whsec_…`) or token: only in the answer that made it (create, rotate, a change of verification type); store it now',
  })
  secret?: string;
}

export class DeliveryResponseDto {
  @ApiProperty({ format: 'uuid', example: DELIVERY_ID })
  id!: string;

  @ApiProperty({ format: 'uuid', example: WEBHOOK_ID })
  webhook_id!: string;

  @ApiProperty({ format: 'date-time', example: '2026-11-22T10:00:00.000Z' })
  received_at!: string;

  @ApiProperty({ example: 'POST' })
  method!: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    example: DELIVERY_EXAMPLE.headers,
    description: 'The request headers; credentials, the signature and the token header are masked (`***`)',
  })
  headers!: Record<string, string>;

  @ApiProperty({ example: DELIVERY_EXAMPLE.body, description: 'The body as sent (UTF-8), its first 64 KiB' })
  body!: string;

  @ApiProperty({ example: false, description: 'Whether the body was longer than the 64 KiB shown' })
  body_truncated!: boolean;

  @ApiProperty({ type: String, nullable: true, example: 'application/json' })
  content_type!: string | null;

  @ApiProperty({
    enum: WEBHOOK_DELIVERY_OUTCOMES,
    example: 'accepted',
    description: 'accepted (a run was or will be started), duplicate (a repeated webhook-id), rejected (signature or token failed)',
  })
  outcome!: string;

  @ApiProperty({ type: String, nullable: true, example: 'signature does not match', description: 'Why it was rejected, or why its run could not be started' })
  reason!: string | null;

  @ApiProperty({ type: 'integer', example: 202, description: 'The status the sender was answered' })
  status_code!: number;

  @ApiProperty({ type: String, format: 'uuid', nullable: true, example: RUN_ID, description: 'The run it started (null when none was started)' })
  run_id!: string | null;

  @ApiProperty({ type: String, format: 'uuid', nullable: true, example: '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8e07', description: 'The delivery this one replays' })
  replay_of!: string | null;
}

/** The failure of a run waited for in sync mode; inline (not a $ref) so that null validates against it. */
const RUN_ERROR: ApiPropertyOptions = {
  type: 'object',
  nullable: true,
  required: ['code', 'message', 'step_id'],
  properties: {
    code: { type: 'string', example: 'http_error' },
    message: { type: 'string', example: 'POST https://hooks.example.com/big answered 502' },
    step_id: { type: 'string', nullable: true, example: 'notify' },
  },
};

export class DeliveryReceivedResponseDto {
  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    example: RUN_ID,
    description:
      'The run the delivery starts: poll GET /run/executions/{run_id} (404 for the moment until the run service has taken it; a burst or a run-service outage queues it). Null when the run service refused the start (workflow disabled or deleted)',
  })
  run_id!: string | null;

  @ApiProperty({ format: 'uuid', example: DELIVERY_ID, description: 'The stored delivery (GET /webhooks/{id}/logs)' })
  delivery_id!: string;

  @ApiPropertyOptional({ example: true, description: 'A repeated webhook-id (or Idempotency-Key): the first delivery and its run' })
  duplicate?: boolean;

  @ApiPropertyOptional({
    enum: ['running', ...FINISHED_EXECUTION_STATUSES],
    example: 'succeeded',
    description: 'sync mode: the run status when it finished in time, `running` when it did not',
  })
  status?: string;

  @ApiPropertyOptional({
    ...ANY_JSON_SCHEMA,
    description: "sync mode: the finished run's output (any JSON; null when it failed or did not finish in time)",
    example: { got: { order: 42 } },
  })
  output?: unknown;

  @ApiPropertyOptional({
    ...RUN_ERROR,
    description: 'sync mode: why the run failed',
    example: { code: 'http_error', message: 'POST https://hooks.example.com/big answered 502', step_id: 'notify' },
  })
  error?: { code: string; message: string; step_id: string | null } | null;
}

export class DeliveryReplayedResponseDto {
  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    example: RUN_ID,
    description: 'The new run (it may take a moment to appear when the run service is busy or down; null when the run service refused it)',
  })
  run_id!: string | null;

  @ApiProperty({ format: 'uuid', example: REPLAYED_EXAMPLE.delivery_id, description: 'The new delivery, a copy of the replayed one' })
  delivery_id!: string;

  @ApiProperty({ format: 'uuid', example: DELIVERY_ID, description: 'The delivery replayed' })
  replay_of!: string;
}
