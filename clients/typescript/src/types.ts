import type { components } from './schema.js';

type Schemas = components['schemas'];

export type Workflow = Schemas['WorkflowResponseDto'];
export type CreateWorkflowRequest = Schemas['CreateWorkflowRequestDto'];
export type PatchWorkflowRequest = Schemas['PatchWorkflowRequestDto'];
export type WorkflowStep = Schemas['WorkflowStep'];
export type ValidationResult = Schemas['ValidateWorkflowResponseDto'];
export type Execution = Schemas['ExecutionResponseDto'];
export type ExecutionSummary = Schemas['ExecutionSummaryDto'];
export type ExecutionLog = Schemas['ExecutionLogDto'];
export type ExecutionStatus = Execution['status'];
export type RunAccepted = Schemas['RunAcceptedResponseDto'];
export type ApiKey = Schemas['ApiKeyResponseDto'];
export type CreatedApiKey = Schemas['CreatedApiKeyResponseDto'];
export type CreateApiKeyRequest = Schemas['CreateAccountApiKeyRequestDto'];
export type Trigger = Schemas['TriggerResponseDto'];
export type CreateTriggerRequest = Schemas['CreateTriggerRequestDto'];
export type UpdateTriggerRequest = Schemas['UpdateTriggerRequestDto'];
export type TriggerFiring = Schemas['TriggerExecutionResponseDto'];
export type Webhook = Schemas['WebhookResponseDto'];
export type CreateWebhookRequest = Schemas['CreateWebhookRequestDto'];
export type UpdateWebhookRequest = Schemas['UpdateWebhookRequestDto'];
export type WebhookDelivery = Schemas['DeliveryResponseDto'];

/** The statuses a run never leaves. */
export const FINAL_STATUSES: readonly ExecutionStatus[] = ['succeeded', 'failed', 'cancelled', 'timed_out'];

export function isFinal(status: ExecutionStatus): boolean {
  return FINAL_STATUSES.includes(status);
}

/** What `GET /account/me` answers for the credential in use. */
export interface Me {
  type: string;
  tenant_id: string;
  environment_id: string;
  customer_id?: string | null;
  scopes?: string[];
  mode?: 'live' | 'test';
  key_id?: string;
  name?: string;
  [key: string]: unknown;
}

/** The answer of `POST /v1/data/query`. */
export interface QueryResult {
  columns: { name: string; type: string }[];
  rows: Record<string, unknown>[];
  row_count: number;
  truncated: boolean;
}
