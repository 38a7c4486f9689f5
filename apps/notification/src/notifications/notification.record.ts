import type { NotificationAttemptResult, NotificationStatus } from '@platform/messaging';
import type { ChannelKind } from '../channels/dto/channel.request.dto.js';
import type { Content } from '../delivery/render.js';

export type Source = 'api' | 'workflow' | 'platform';

/** One attempt as recorded in `attempts` (and answered in the history). */
export interface Attempt {
  attempt: number;
  at: string;
  outcome: NotificationAttemptResult;
  status_code: number | null;
  error: string | null;
  /** When the next attempt is due (outcome retry). */
  retry_at?: string | null;
}

export interface NotificationRow {
  tenant_id: string;
  environment_id: string;
  scope_id: string | null;
  id: string;
  channel_id: string | null;
  kind: ChannelKind;
  source: Source;
  recipients: string[] | null;
  target_iv: Buffer | null;
  target_ciphertext: Buffer | null;
  target_tag: Buffer | null;
  subject: string | null;
  template: string | null;
  content: Content;
  status: NotificationStatus;
  attempts: Attempt[];
  attempt_count: number;
  next_attempt_at: Date | null;
  idempotency_key: string | null;
  request_hash: string | null;
  created_at: Date;
  updated_at: Date;
  delivered_at: Date | null;
}

export interface NotificationResponse {
  id: string;
  status: NotificationStatus;
  kind: ChannelKind;
  channel_id: string | null;
  source: Source;
  to: string[] | null;
  subject: string | null;
  template: string | null;
  idempotency_key: string | null;
  customer_id: string | null;
  attempts: Attempt[];
  created_at: string;
  updated_at: string;
  delivered_at: string | null;
}

export function toNotificationResponse(row: NotificationRow): NotificationResponse {
  return {
    id: row.id,
    status: row.status,
    kind: row.kind,
    channel_id: row.channel_id,
    source: row.source,
    to: row.recipients,
    subject: row.subject,
    template: row.template,
    idempotency_key: row.idempotency_key,
    customer_id: row.scope_id,
    attempts: row.attempts,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    delivered_at: row.delivered_at?.toISOString() ?? null,
  };
}
