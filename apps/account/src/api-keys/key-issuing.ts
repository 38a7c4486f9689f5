import { displayPrefix, forbidden, generateApiKey, hasScopes, type Principal } from '@platform/auth';
import { newId } from '@platform/common';
import type { EntityManager } from 'typeorm';
import type { ApiKeyRow, NewApiKey } from './api-key.record.js';
import { apiKeysRepository } from './api-keys.repository.js';
import type { KeyHasher } from './key-hasher.js';

/** Who asks for a key value: its scopes, the customer it acts for (a customer key, or X-Scope-Key), and how the record names it. */
export type KeyIssuer = Pick<Principal, 'scopes' | 'scopeId'> & { createdBy: string };

/** The key whose value would be handed out. */
export type KeyToIssue = Omit<NewApiKey, 'id' | 'prefix' | 'hash' | 'createdBy'>;

/** The platform's own issuing (tenant provisioning by the operator or the admin command): it holds everything. */
export const PLATFORM_ISSUER: KeyIssuer = { scopes: ['*'], scopeId: null, createdBy: 'system:provisioning' };

export const issuerOf = (principal: Principal): KeyIssuer => ({
  scopes: principal.scopes,
  scopeId: principal.scopeId,
  createdBy: `${principal.kind}:${principal.subject}`,
});

/**
 * The one rule for every path that hands out a key value (create, rotate, provisioning): the
 * caller can obtain only a key it could act as itself. Every scope of the key must be one of its
 * own (`*` covers all, and only `*` grants `*`), and a caller acting for a customer gets only
 * customer keys of that customer. Otherwise a key manager could mint or rotate its way to `*`.
 */
export function assertMayIssue(issuer: Pick<KeyIssuer, 'scopes' | 'scopeId'>, key: Pick<KeyToIssue, 'type' | 'customerId' | 'scopes'>): void {
  if (!hasScopes(issuer, key.scopes)) throw forbidden();
  if (issuer.scopeId && (key.type !== 'customer' || key.customerId !== issuer.scopeId)) throw forbidden();
}

/** The only place a key value is made: checked against the rule, then stored as a keyed hash. The value is returned this once. */
export async function issueKey(m: EntityManager, hasher: KeyHasher, issuer: KeyIssuer, key: KeyToIssue): Promise<{ row: ApiKeyRow; value: string }> {
  assertMayIssue(issuer, key);
  const value = generateApiKey(key.mode);
  const row = await apiKeysRepository.insert(m, {
    ...key,
    id: newId(),
    prefix: displayPrefix(value),
    hash: hasher.hash(value),
    createdBy: issuer.createdBy,
  });
  return { row, value };
}
