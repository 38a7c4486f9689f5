import type { WebhookDeliveryOutcome } from '@platform/messaging';
import type { ResponseMode, VerificationType } from './dto/webhook.request.dto.js';

export interface WebhookRow {
  tenant_id: string;
  environment_id: string;
  scope_id: string | null;
  id: string;
  name: string;
  workflow_id: string;
  verification_type: VerificationType;
  token_header: string | null;
  secret_iv: Buffer | null;
  secret_ciphertext: Buffer | null;
  secret_tag: Buffer | null;
  response_mode: ResponseMode;
  timeout_ms: number | null;
  enabled: boolean;
  /** Grows with every change (a trigger): what a cached copy is checked against. bigint, so text. */
  version: string;
  /** A webhook trigger points at it: its accepted deliveries are announced to the trigger service. */
  fires_triggers: boolean;
  created_at: Date;
  updated_at: Date;
}

export interface DeliveryRow {
  tenant_id: string;
  environment_id: string;
  scope_id: string | null;
  id: string;
  webhook_id: string;
  workflow_id: string;
  received_at: Date;
  method: string;
  headers: Record<string, string>;
  body: Buffer;
  content_type: string | null;
  outcome: WebhookDeliveryOutcome;
  reason: string | null;
  status_code: number;
  dedupe_key: string | null;
  run_input: Record<string, unknown> | null;
  /** Given when the delivery is accepted; the run exists once `started_at` is set. */
  run_id: string | null;
  started_at: Date | null;
  start_error: string | null;
  replay_of: string | null;
}

export interface WebhookResponse {
  id: string;
  name: string;
  workflow_id: string;
  url: string;
  verification: { type: VerificationType; header?: string };
  response: { mode: ResponseMode; timeout_ms?: number };
  enabled: boolean;
  created_at: string;
  updated_at: string;
  /** Only in the answer that made it (create, rotate, a verification change). */
  secret?: string;
}

export const receivingPath = (id: string) => `/webhooks/in/${id}`;

export function toWebhookResponse(row: WebhookRow, secret?: string): WebhookResponse {
  return {
    id: row.id,
    name: row.name,
    workflow_id: row.workflow_id,
    url: receivingPath(row.id),
    verification: row.verification_type === 'token' ? { type: 'token', header: row.token_header ?? '' } : { type: row.verification_type },
    response: row.response_mode === 'sync' ? { mode: 'sync', timeout_ms: row.timeout_ms ?? 10_000 } : { mode: 'async' },
    enabled: row.enabled,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    ...(secret ? { secret } : {}),
  };
}

export const LOG_BODY_BYTES = 64 * 1024;

export interface DeliveryResponse {
  id: string;
  webhook_id: string;
  received_at: string;
  method: string;
  headers: Record<string, string>;
  body: string;
  body_truncated: boolean;
  content_type: string | null;
  outcome: WebhookDeliveryOutcome;
  reason: string | null;
  status_code: number;
  run_id: string | null;
  replay_of: string | null;
}

export function toDeliveryResponse(row: DeliveryRow): DeliveryResponse {
  return {
    id: row.id,
    webhook_id: row.webhook_id,
    received_at: row.received_at.toISOString(),
    method: row.method,
    headers: row.headers,
    body: row.body.subarray(0, LOG_BODY_BYTES).toString('utf8'),
    body_truncated: row.body.length > LOG_BODY_BYTES,
    content_type: row.content_type,
    outcome: row.outcome,
    reason: row.reason ?? row.start_error,
    status_code: row.status_code,
    // A run that could never start (workflow disabled or deleted) has no id to show.
    run_id: row.start_error && !row.started_at ? null : row.run_id,
    replay_of: row.replay_of,
  };
}
