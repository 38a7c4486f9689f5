import type { WorkQueueSpec } from '../jetstream/work-queue.js';

/** Subjects the account service answers or emits. */
export const AccountSubjects = {
  /** Request: verify an API key presented to any service. */
  keysVerify: 'account.keys.verify',
  /** Event, fanned out to every replica of every service: drop cached verifications of these keys now. */
  keysRevoked: 'account.keys.revoked',
  /** Work queue (JetStream): batches of key uses for usage statistics and the audit log. */
  keysUsed: 'account.keys.used',
  /** Request: the tenant's environment for a JWT caller (X-SELECTED-ENV, or production). */
  environmentsResolve: 'account.environments.resolve',
  /** Request: does this customer scope exist in the tenant's environment? */
  customersResolve: 'account.customers.resolve',
  customersCreate: 'account.customers.create',
  customersList: 'account.customers.list',
  customersGet: 'account.customers.get',
  customersUpdate: 'account.customers.update',
  customersDelete: 'account.customers.delete',
} as const;

/** Durable: a key use recorded by any service survives an account restart. */
export const KEY_USES_QUEUE: WorkQueueSpec = {
  stream: 'ACCOUNT_KEY_USES',
  subjects: [AccountSubjects.keysUsed],
  consumer: 'account-audit',
  maxDeliver: 10,
  ackWaitMs: 30_000,
  deadLetterSubject: 'account.keys.used.dead',
};

export interface VerifyKeyRequest {
  key: string;
}

export interface VerifiedKey {
  keyId: string;
  name: string;
  tenantId: string;
  environmentId: string;
  customerId: string | null;
  type: 'tenant' | 'customer';
  mode: 'live' | 'test';
  scopes: string[];
  /** Unix ms after which the verification must not be reused (expiry or end of a rotation period). */
  validUntil: number | null;
}

export type VerifyKeyResponse = { valid: true; key: VerifiedKey } | { valid: false };

export interface KeysRevokedEvent {
  keyIds: string[];
}

export interface KeyUse {
  /** Made by the recording service, so a redelivered batch writes each use once. */
  id: string;
  keyId: string;
  keyName: string;
  tenantId: string;
  environmentId: string;
  customerId: string | null;
  method: string;
  endpoint: string;
  httpStatus: number;
  requestId: string;
  ip: string | null;
  at: string;
}

export interface KeysUsedBatch {
  uses: KeyUse[];
}

export interface ResolveEnvironmentRequest {
  tenantId: string;
  /** X-SELECTED-ENV; absent means the tenant's production environment. */
  environmentId?: string;
}

export type ResolveEnvironmentResponse = { found: true; environmentId: string; mode: 'live' | 'test' } | { found: false };

export interface ResolveCustomerRequest {
  customerId: string;
}

export interface ResolveCustomerResponse {
  exists: boolean;
}

export interface CustomerRecord {
  id: string;
  name: string;
  external_id: string | null;
  metadata: Record<string, unknown>;
  created_at: string;
  updated_at: string;
}

export interface CreateCustomerRequest {
  name: string;
  external_id?: string | null;
  metadata?: Record<string, unknown>;
}

export interface ListCustomersRequest {
  limit: number;
  cursor?: string;
  external_id?: string;
}

export interface CustomerPage {
  data: CustomerRecord[];
  next_cursor: string | null;
}

export interface CustomerIdRequest {
  id: string;
}

export interface UpdateCustomerRequest extends CustomerIdRequest {
  name?: string;
  external_id?: string | null;
  metadata?: Record<string, unknown>;
}

export interface AccountRequests {
  [AccountSubjects.keysVerify]: { request: VerifyKeyRequest; response: VerifyKeyResponse };
  [AccountSubjects.environmentsResolve]: { request: ResolveEnvironmentRequest; response: ResolveEnvironmentResponse };
  [AccountSubjects.customersResolve]: { request: ResolveCustomerRequest; response: ResolveCustomerResponse };
  [AccountSubjects.customersCreate]: { request: CreateCustomerRequest; response: CustomerRecord };
  [AccountSubjects.customersList]: { request: ListCustomersRequest; response: CustomerPage };
  [AccountSubjects.customersGet]: { request: CustomerIdRequest; response: CustomerRecord };
  [AccountSubjects.customersUpdate]: { request: UpdateCustomerRequest; response: CustomerRecord };
  [AccountSubjects.customersDelete]: { request: CustomerIdRequest; response: { deleted: true } };
}

export interface AccountEvents {
  [AccountSubjects.keysRevoked]: KeysRevokedEvent;
}
