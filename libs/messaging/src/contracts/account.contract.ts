import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsInt,
  IsISO8601,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  Length,
  Max,
  MaxLength,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import type { WorkQueueSpec } from '../jetstream/work-queue.js';

/** Subjects the account service answers or emits. */
export const AccountSubjects = {
  /** Request: verify an API key presented to any service. */
  keysVerify: 'account.keys.verify',
  /** Event, fanned out to every replica of every service: drop cached verifications of these keys now. */
  keysRevoked: 'account.keys.revoked',
  /** Work queue (JetStream): batches of key uses for usage statistics and the audit log. */
  keysUsed: 'account.keys.used',
  /**
   * Work item (JetStream): an active API key expires within the notice window. Published once per
   * key (the account service records the announcement); the notification service sends the
   * tenant's `api_key_expiring` notice.
   */
  keyExpiring: 'account.keys.expiring',
  /** Request: the tenant's environment for a JWT caller (X-SELECTED-ENV, or production). */
  environmentsResolve: 'account.environments.resolve',
  /** Request: does this customer scope exist in the tenant's environment? */
  customersResolve: 'account.customers.resolve',
  customersCreate: 'account.customers.create',
  customersList: 'account.customers.list',
  customersGet: 'account.customers.get',
  customersUpdate: 'account.customers.update',
  customersDelete: 'account.customers.delete',
  /** Request: is this user a member of the tenant, this team one of its teams, this user in this team? (task assignment and completion) */
  directoryCheck: 'account.directory.check',
} as const;

/** `account.keys.verify`: the key as presented; its format is checked by the handler. */
export class VerifyKeyRequest {
  @IsString()
  @MaxLength(8192)
  key!: string;
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

export class KeysRevokedEvent {
  @IsArray()
  @ArrayMaxSize(10_000)
  @IsUUID('all', { each: true })
  keyIds!: string[];
}

export class KeyUse {
  /** Made by the recording service, so a redelivered batch writes each use once. */
  @IsUUID()
  id!: string;

  @IsUUID()
  keyId!: string;

  @IsString()
  @MaxLength(1000)
  keyName!: string;

  @IsUUID()
  tenantId!: string;

  @IsUUID()
  environmentId!: string;

  @IsOptional()
  @IsUUID()
  customerId!: string | null;

  @IsString()
  @MaxLength(16)
  method!: string;

  @IsString()
  @MaxLength(16_384)
  endpoint!: string;

  @IsInt()
  @Min(100)
  @Max(599)
  httpStatus!: number;

  @IsString()
  @MaxLength(128)
  requestId!: string;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  ip!: string | null;

  @IsISO8601()
  at!: string;
}

/** `account.keys.used` (work queue). */
export class KeysUsedBatch {
  @IsArray()
  @ArrayMaxSize(10_000)
  @ValidateNested({ each: true })
  @Type(() => KeyUse)
  uses!: KeyUse[];
}

/** Malformed ids are answered `{ found: false }` by the handler, as an unknown tenant is. */
export class ResolveEnvironmentRequest {
  @IsString()
  @MaxLength(64)
  tenantId!: string;

  /** X-SELECTED-ENV; absent means the tenant's production environment. */
  @IsOptional()
  @IsString()
  @MaxLength(64)
  environmentId?: string;
}

export type ResolveEnvironmentResponse = { found: true; environmentId: string; mode: 'live' | 'test' } | { found: false };

/** A malformed id is answered `{ exists: false }`, as an unknown customer is. */
export class ResolveCustomerRequest {
  @IsString()
  @MaxLength(64)
  customerId!: string;
}

export interface ResolveCustomerResponse {
  exists: boolean;
}

export const CUSTOMER_STATUSES = ['active', 'disabled'] as const;
export type CustomerStatus = (typeof CUSTOMER_STATUSES)[number];

export interface CustomerRecord {
  id: string;
  name: string;
  external_id: string | null;
  metadata: Record<string, unknown>;
  /** A disabled customer's keys are refused, its scope cannot be selected, and nothing new can be published or embedded for it. */
  status: CustomerStatus;
  disabled_at: string | null;
  created_at: string;
  updated_at: string;
}

export class CreateCustomerRequest {
  @IsString()
  @Length(1, 200)
  name!: string;

  @ValidateIf((o: CreateCustomerRequest) => o.external_id !== undefined && o.external_id !== null)
  @IsString()
  @Length(1, 200)
  external_id?: string | null;

  @IsOptional()
  @IsObject()
  metadata?: Record<string, unknown>;
}

export class ListCustomersRequest {
  @IsInt()
  @Min(1)
  @Max(200)
  limit!: number;

  @IsOptional()
  @IsString()
  @MaxLength(1024)
  cursor?: string;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  external_id?: string;

  @IsOptional()
  @IsIn(CUSTOMER_STATUSES)
  status?: CustomerStatus;

  /** Customers whose name contains this text (case-insensitive). */
  @IsOptional()
  @IsString()
  @MaxLength(200)
  name?: string;
}

export interface CustomerPage {
  data: CustomerRecord[];
  next_cursor: string | null;
}

export class CustomerIdRequest {
  @IsUUID()
  id!: string;
}

export class UpdateCustomerRequest extends CustomerIdRequest {
  @IsOptional()
  @IsString()
  @Length(1, 200)
  name?: string;

  @ValidateIf((o: UpdateCustomerRequest) => o.external_id !== undefined && o.external_id !== null)
  @IsString()
  @Length(1, 200)
  external_id?: string | null;

  @IsOptional()
  @IsObject()
  metadata?: Record<string, unknown>;

  @IsOptional()
  @IsIn(CUSTOMER_STATUSES)
  status?: CustomerStatus;
}

/**
 * `account.directory.check` in the caller's tenant: `{ userId }` a member of the tenant, `{ teamId }`
 * a team of the tenant, both: the user is a member of that team.
 */
export class DirectoryCheckRequest {
  @IsOptional()
  @IsUUID()
  userId?: string;

  @IsOptional()
  @IsUUID()
  teamId?: string;
}

export interface DirectoryCheckResponse {
  ok: boolean;
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
  [AccountSubjects.directoryCheck]: { request: DirectoryCheckRequest; response: DirectoryCheckResponse };
}

export interface AccountEvents {
  [AccountSubjects.keysRevoked]: KeysRevokedEvent;
}

/** Durable: a key use recorded by any service survives an account restart. */
export const KEY_USES_QUEUE: WorkQueueSpec = {
  stream: 'ACCOUNT_KEY_USES',
  subjects: [AccountSubjects.keysUsed],
  consumer: 'account-audit',
  maxDeliver: 10,
  ackWaitMs: 30_000,
  deadLetterSubject: 'account.keys.used.dead',
  payload: KeysUsedBatch,
};

/** `account.keys.expiring`: which key expires when, for the tenant environment in the item's context. Never the key itself. */
export class ApiKeyExpiringEvent {
  @IsUUID()
  keyId!: string;

  @IsString()
  @MaxLength(200)
  name!: string;

  /** The key's public prefix (as listed by `GET /account/api-keys`), so people can tell which one it is. */
  @IsString()
  @MaxLength(64)
  prefix!: string;

  @IsIn(['tenant', 'customer'])
  type!: 'tenant' | 'customer';

  @IsIn(['live', 'test'])
  mode!: 'live' | 'test';

  @IsOptional()
  @IsUUID()
  customerId?: string | null;

  @IsISO8601()
  expiresAt!: string;
}

/**
 * Expiry notices on their way to the notification service: a work-queue stream (both sides create
 * it), so a notice published while the notification service is down is sent when it comes back.
 * The message id is the key's id and expiry, so a repeated publish within the stream's window is dropped.
 */
export const KEY_EXPIRY_NOTICES_QUEUE: WorkQueueSpec = {
  stream: 'ACCOUNT_KEY_NOTICES',
  subjects: [AccountSubjects.keyExpiring],
  consumer: 'notification-key-notices',
  maxDeliver: 20,
  ackWaitMs: 30_000,
  deadLetterSubject: 'account.keys.expiring.dead',
  payload: ApiKeyExpiringEvent,
};
