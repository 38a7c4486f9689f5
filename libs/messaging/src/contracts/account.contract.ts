/** Subjects the account service answers or emits. */
export const AccountSubjects = {
  /** Request: verify an API key presented to any service. */
  keysVerify: 'account.keys.verify',
  /** Event (fan-out to every replica): drop cached verifications of these keys now. */
  keysRevoked: 'account.keys.revoked',
  /** Event: a batch of key uses, written to usage statistics and the audit log. */
  keysUsed: 'account.keys.used',
  /** Request: does this customer scope belong to the tenant? */
  customersResolve: 'account.customers.resolve',
} as const;

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
  /** Lookup hashes of the revoked keys, so caches keyed by hash can drop them without a lookup. */
  hashes: string[];
}

export interface KeyUse {
  keyId: string;
  keyName: string;
  tenantId: string;
  environmentId: string;
  method: string;
  endpoint: string;
  httpStatus: number;
  requestId: string;
  ip: string | null;
  at: string;
}

export interface KeysUsedEvent {
  uses: KeyUse[];
}

export interface ResolveCustomerRequest {
  tenantId: string;
  environmentId: string;
  customerId: string;
}

export interface ResolveCustomerResponse {
  exists: boolean;
}

export interface AccountRequests {
  [AccountSubjects.keysVerify]: { request: VerifyKeyRequest; response: VerifyKeyResponse };
  [AccountSubjects.customersResolve]: { request: ResolveCustomerRequest; response: ResolveCustomerResponse };
}

export interface AccountEvents {
  [AccountSubjects.keysRevoked]: KeysRevokedEvent;
  [AccountSubjects.keysUsed]: KeysUsedEvent;
}
