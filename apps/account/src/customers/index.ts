import type { EntityManager } from 'typeorm';
import { customersRepository } from './customers.repository.js';

// What other features of this app may use of customers, inside their own transaction: the
// repository stays private to this folder (scripts/check-feature-deps.js).

/**
 * Whether the customer exists in the caller's tenant, locked FOR SHARE for issuing a key to it:
 * a concurrent deletion (FOR UPDATE) waits for the issuing transaction.
 */
export async function lockCustomerForKey(m: EntityManager, id: string): Promise<boolean> {
  return (await customersRepository.get(m, id, true)) !== undefined;
}
